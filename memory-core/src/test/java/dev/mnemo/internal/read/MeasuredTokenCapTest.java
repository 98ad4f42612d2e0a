package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.llm.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary cap counted by a model's own tokenizer instead of the four-byte estimate. */
class MeasuredTokenCapTest {

    /** One token per code point: how a tokenizer sees CJK text, which the estimate rates at 0.75 a character. */
    private static final TokenCounter PER_CODE_POINT = text -> text.codePointCount(0, text.length());

    @TempDir
    Path root;

    @Test
    void estimate_isCodexTruncationExactly() {
        String text = "x".repeat(10_000);

        assertThat(TokenTruncation.truncateMiddle(text, 500, TokenCounter.estimate()))
                .isEqualTo(TokenTruncation.truncateMiddle(text, 500));
    }

    @Test
    void textTheModelCountsWithinTheLimit_isKeptWhole_evenWhenTheEstimateSaysOver() {
        String text = "abcdefgh".repeat(500); // 4,000 bytes: 1,000 estimated tokens, 500 by an 8-chars-a-token counter
        TokenCounter eightCharsAToken = t -> (t.length() + 7) / 8;

        assertThat(TokenTruncation.truncateMiddle(text, 600, eightCharsAToken)).isEqualTo(text);
        assertThat(TokenTruncation.truncateMiddle(text, 600)).isNotEqualTo(text);
    }

    @Test
    void textTheModelCountsOver_isCutToFit_andTheMarkerNamesTheModelsCount() {
        String text = "記憶".repeat(2_000); // 4,000 code points: 3,000 estimated tokens, 4,000 counted

        String cut = TokenTruncation.truncateMiddle(text, 1_000, PER_CODE_POINT);

        assertThat(PER_CODE_POINT.count(cut)).isLessThanOrEqualTo(1_000 + PER_CODE_POINT.count("…3000 tokens truncated…"));
        assertThat(PER_CODE_POINT.count(cut)).isGreaterThan(900);
        assertThat(cut).contains("…3000 tokens truncated…").startsWith("記憶").endsWith("記憶");
        // The estimate alone would have let 1,333 code points through: a third over the limit.
        assertThat(PER_CODE_POINT.count(TokenTruncation.truncateMiddle(text, 1_000))).isGreaterThan(1_300);
    }

    @Test
    void instructions_capTheSummaryWithTheirCounter() throws Exception {
        Files.writeString(root.resolve("memory_summary.md"), "記憶".repeat(2_000), StandardCharsets.UTF_8);
        MemoriesConfig config = MemoriesConfig.builder().summaryTokenLimit(1_000).build();

        String measured = new DeveloperInstructions(root, config, PER_CODE_POINT).build();
        String estimated = new DeveloperInstructions(root, config).build();

        assertThat(measured).contains("…3000 tokens truncated…");
        assertThat(estimated).contains("…2000 tokens truncated…"); // 12,000 bytes: 3,000 estimated tokens
        assertThat(measured.codePointCount(0, measured.length()))
                .isLessThan(estimated.codePointCount(0, estimated.length()));
    }
}
