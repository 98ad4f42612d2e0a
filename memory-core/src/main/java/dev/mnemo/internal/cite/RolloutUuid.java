package dev.mnemo.internal.cite;

import java.util.Locale;
import java.util.Optional;

/**
 * Reads a cited rollout id the way Rust's {@code uuid::Uuid::parse_str} does, so Mnemo accepts
 * exactly the ids Codex accepts: 36-character hyphenated ({@code 8-4-4-4-12}), 32 hex digits
 * without hyphens, the hyphenated form in braces, or the hyphenated form after a lower-case
 * {@code urn:uuid:} prefix; hex digits in either case. The result is the lower-case hyphenated form
 * that rows are keyed by.
 */
final class RolloutUuid {

    private static final String URN_PREFIX = "urn:uuid:";
    private static final int[] HYPHEN_POSITIONS = {8, 13, 18, 23};

    private RolloutUuid() {}

    /** The lower-case hyphenated spelling, or empty when {@code text} is not a UUID. */
    static Optional<String> normalise(String text) {
        return switch (text.length()) {
            case 32 -> simple(text);
            case 36 -> hyphenated(text);
            case 38 -> text.charAt(0) == '{' && text.charAt(37) == '}'
                    ? hyphenated(text.substring(1, 37)) : Optional.empty();
            case 45 -> text.startsWith(URN_PREFIX) ? hyphenated(text.substring(URN_PREFIX.length())) : Optional.empty();
            default -> Optional.empty();
        };
    }

    private static Optional<String> simple(String hex) {
        if (!allHex(hex)) {
            return Optional.empty();
        }
        String lower = hex.toLowerCase(Locale.ROOT);
        return Optional.of(lower.substring(0, 8) + '-' + lower.substring(8, 12) + '-' + lower.substring(12, 16)
                + '-' + lower.substring(16, 20) + '-' + lower.substring(20));
    }

    private static Optional<String> hyphenated(String text) {
        StringBuilder digits = new StringBuilder(32);
        int nextHyphen = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (nextHyphen < HYPHEN_POSITIONS.length && i == HYPHEN_POSITIONS[nextHyphen]) {
                if (c != '-') {
                    return Optional.empty();
                }
                nextHyphen++;
            } else {
                digits.append(c);
            }
        }
        return simple(digits.toString());
    }

    private static boolean allHex(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            if (!hex) {
                return false;
            }
        }
        return true;
    }
}
