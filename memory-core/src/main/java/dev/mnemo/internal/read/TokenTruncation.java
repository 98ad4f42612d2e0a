package dev.mnemo.internal.read;

import dev.mnemo.llm.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Codex's middle truncation over its token estimate ({@link TokenCounter#estimate()}, the one home
 * of that rule: a token is 4 UTF-8 bytes, rounded up). Text over budget keeps a head and a tail of
 * half the byte budget each, cut on code-point boundaries, with {@code …N tokens truncated…}
 * between them, where N is the estimated tokens over budget.
 */
public final class TokenTruncation {

    /** Codex's {@code APPROX_BYTES_PER_TOKEN} ({@link TokenCounter#BYTES_PER_TOKEN}). */
    public static final int BYTES_PER_TOKEN = TokenCounter.BYTES_PER_TOKEN;

    /** Rounds of measuring a cut with a model's counter before the last one is kept as it is. */
    private static final int MAX_MEASURED_ROUNDS = 6;

    private TokenTruncation() {}

    /** {@code ceil(utf8Bytes / 4)}: {@link TokenCounter#estimateTokens(String)}. */
    public static long approxTokens(String text) {
        return TokenCounter.estimateTokens(text);
    }

    /**
     * Returns {@code text} unchanged when it fits in {@code maxTokens}; otherwise its head and tail
     * around the truncation marker. A budget of 0 leaves only the marker.
     */
    public static String truncateMiddle(String text, int maxTokens) {
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative, was " + maxTokens);
        }
        if (text.isEmpty()) {
            return text;
        }
        long totalBytes = utf8Length(text);
        long budget = (long) maxTokens * BYTES_PER_TOKEN;
        if (budget == 0) {
            return marker(TokenCounter.tokensOfBytes(totalBytes));
        }
        if (totalBytes <= budget) {
            return text;
        }
        return cut(text, budget, TokenCounter.tokensOfBytes(totalBytes - budget));
    }

    /**
     * Head and tail of {@code budget} bytes in all, cut on code points, around a marker naming
     * {@code overTokens}. Walks in from each end only as far as its budget reaches; the middle is
     * never visited.
     */
    private static String cut(String text, long budget, long overTokens) {
        long headBudget = budget / 2;
        int headEnd = headEnd(text, headBudget);
        int tailStart = Math.max(tailStart(text, budget - headBudget), headEnd);
        return text.substring(0, headEnd) + marker(overTokens) + text.substring(tailStart);
    }

    /**
     * Where the longest start of {@code text} within {@code maxBytes} of UTF-8 ends, on a code-point
     * boundary; walks only as far as the budget reaches.
     */
    public static int headEnd(String text, long maxBytes) {
        int end = 0;
        for (long bytes = 0; end < text.length(); ) {
            int codePoint = text.codePointAt(end);
            bytes += utf8Length(codePoint);
            if (bytes > maxBytes) {
                break;
            }
            end += Character.charCount(codePoint);
        }
        return end;
    }

    /**
     * Where the longest end of {@code text} within {@code maxBytes} of UTF-8 starts, on a code-point
     * boundary; walks back only as far as the budget reaches.
     */
    public static int tailStart(String text, long maxBytes) {
        int start = text.length();
        for (long bytes = 0; start > 0; ) {
            int codePoint = text.codePointBefore(start);
            bytes += utf8Length(codePoint);
            if (bytes > maxBytes) {
                break;
            }
            start -= Character.charCount(codePoint);
        }
        return start;
    }

    /** The tokens of {@code text} as {@code counter} counts them. */
    public static long tokens(String text, TokenCounter counter) {
        return counter.count(text);
    }

    /**
     * {@link #truncateMiddle(String, int)} with tokens counted by {@code counter}. With the
     * estimate it is exactly Codex's truncation. With a model's own counter, text that counter
     * finds within {@code maxTokens} is kept whole; longer text is cut by the same head-and-tail
     * rule at the byte budget the counter's measured bytes per token give, shrunk until the counter
     * agrees it fits, and the marker names the tokens the counter found over budget.
     */
    public static String truncateMiddle(String text, int maxTokens, TokenCounter counter) {
        if (isEstimate(counter)) {
            return truncateMiddle(text, maxTokens);
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative, was " + maxTokens);
        }
        long total = counter.count(text);
        if (total <= maxTokens) {
            return text;
        }
        long over = total - maxTokens;
        // The byte budget the measured bytes per token give; each round that still counts over takes a tenth off.
        long budget = (long) ((double) maxTokens * utf8Length(text) / total);
        long allowed = maxTokens + counter.count(marker(over));
        String cut = cut(text, budget, over);
        for (int round = 1; round < MAX_MEASURED_ROUNDS && counter.count(cut) > allowed; round++) {
            budget = budget * 9 / 10;
            cut = cut(text, budget, over);
        }
        return cut;
    }

    private static boolean isEstimate(TokenCounter counter) {
        return Objects.requireNonNull(counter, "counter") == TokenCounter.estimate();
    }

    private static String marker(long tokens) {
        return "\u2026" + tokens + " tokens truncated\u2026";
    }

    /**
     * UTF-8 length. Encoding is the fast way in Java: {@code getBytes} is an intrinsic that copies
     * ASCII text as it is, several times quicker than a loop over {@code charAt} (text decoded from
     * UTF-8 has no lone surrogates; one would count 1 byte, its {@code ?} replacement).
     */
    static long utf8Length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static int utf8Length(int codePoint) {
        if (codePoint < 0x80) {
            return 1;
        } else if (codePoint < 0x800) {
            return 2;
        } else if (codePoint < 0x10000) {
            return 3;
        }
        return 4;
    }
}
