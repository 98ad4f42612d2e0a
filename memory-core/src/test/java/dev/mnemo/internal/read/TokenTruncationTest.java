package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Codex's byte-based middle truncation (read sheet §1.3), checked byte-exactly. */
class TokenTruncationTest {

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void approxTokens_roundsUtf8BytesUpToWholeTokens() {
        assertThat(TokenTruncation.approxTokens("")).isZero();
        assertThat(TokenTruncation.approxTokens("abcd")).isEqualTo(1);
        assertThat(TokenTruncation.approxTokens("abcde")).isEqualTo(2);
        assertThat(TokenTruncation.approxTokens("\u4e2d\u4e2d")).isEqualTo(2); // 6 bytes
        assertThat(TokenTruncation.approxTokens("\uD83D\uDE00")).isEqualTo(1); // 4 bytes, 2 chars
    }

    @Test
    void truncateMiddle_leavesTextWithinBudgetUnchanged() {
        String text = "x".repeat(10_000);

        assertThat(TokenTruncation.truncateMiddle(text, 2_500)).isSameAs(text);
        assertThat(TokenTruncation.truncateMiddle("", 0)).isEmpty();
    }

    @Test
    void truncateMiddle_keepsHalfBudgetAtEachEndWithExactMarker() {
        String text = "a".repeat(6_000) + "b".repeat(6_001);

        String out = TokenTruncation.truncateMiddle(text, 2_500);

        // 12,001 bytes, budget 10,000: 2,001 bytes over -> ceil(2001/4) = 501 tokens.
        assertThat(out).isEqualTo("a".repeat(5_000) + "\u2026501 tokens truncated\u2026"
                + "b".repeat(5_000));
    }

    @Test
    void truncateMiddle_neverSplitsACodePoint() {
        String text = "\u00e9".repeat(3_000) + "\uD83D\uDE00".repeat(2_000); // 6,000 + 8,000 bytes

        String out = TokenTruncation.truncateMiddle(text, 2_500);

        // head: 2,500 two-byte chars (5,000 bytes); tail: 1,250 four-byte emoji (5,000 bytes).
        assertThat(out).isEqualTo("\u00e9".repeat(2_500) + "\u20261000 tokens truncated\u2026"
                + "\uD83D\uDE00".repeat(1_250));
    }

    @Test
    void truncateMiddle_dropsACodePointThatStraddlesTheCut() {
        String text = "abc" + "\u4e2d".repeat(10); // 33 bytes; budget 4 tokens = 16 bytes, halves of 8

        String out = TokenTruncation.truncateMiddle(text, 4);

        // head: "abc" + 1 char (6 bytes; a second would end at 9 > 8); tail: chars starting at >= 25 -> 2 chars (27, 30)
        assertThat(out).isEqualTo("abc\u4e2d\u20265 tokens truncated\u2026\u4e2d\u4e2d");
    }

    @Test
    void truncateMiddle_zeroBudgetLeavesOnlyTheMarker() {
        assertThat(TokenTruncation.truncateMiddle("hello", 0)).isEqualTo("\u20262 tokens truncated\u2026");
        assertThatThrownBy(() -> TokenTruncation.truncateMiddle("x", -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    @Test
    void truncateMiddle_randomTextStaysWithinBudgetPlusMarker() {
        Random random = new Random(42);
        String[] alphabet = {"a", "\u00e9", "\u4e2d", "\uD83D\uDE00", "\n"};
        for (int sample = 0; sample < 200; sample++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(400);
            for (int i = 0; i < length; i++) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            int tokens = 1 + random.nextInt(60);
            String in = text.toString();
            String out = TokenTruncation.truncateMiddle(in, tokens);
            if (utf8(in) <= tokens * 4) {
                assertThat(out).isEqualTo(in);
            } else {
                int marker = out.indexOf('\u2026');
                String head = out.substring(0, marker);
                String tail = out.substring(out.lastIndexOf('\u2026') + 1);
                assertThat(in).startsWith(head).endsWith(tail);
                assertThat(utf8(head)).isLessThanOrEqualTo(tokens * 2);
                assertThat(utf8(tail)).isLessThanOrEqualTo(tokens * 2);
                assertThat(utf8(head)).isGreaterThan(tokens * 2 - 4);
                assertThat(out).contains("\u2026" + ((utf8(in) - tokens * 4 + 3) / 4) + " tokens truncated\u2026");
            }
        }
    }
}
