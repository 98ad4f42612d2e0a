package dev.mnemo.spi;

/**
 * Replaces secrets in text before it reaches a model or storage. Must be thread-safe and must not
 * throw for any input.
 */
@FunctionalInterface
public interface SecretRedactor {

    /**
     * The text with every secret replaced by {@code [REDACTED_SECRET]}.
     *
     * @param text any text; may be empty
     * @return the redacted text; unchanged when it holds none
     */
    String redact(String text);
}
