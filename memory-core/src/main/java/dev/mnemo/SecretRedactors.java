package dev.mnemo;

import dev.mnemo.internal.redact.DefaultSecretRedactor;
import dev.mnemo.spi.SecretRedactor;

/**
 * Mnemo's built-in {@link SecretRedactor}, for code outside the engine that shows text the engine
 * handled (a tracing listener that captures memory content, a log line) and must redact it the way
 * memories are redacted.
 */
public final class SecretRedactors {

    private static final SecretRedactor BUILT_IN = new DefaultSecretRedactor();

    private SecretRedactors() {}

    /**
     * The redactor every engine uses unless {@link MemoryEngine.Builder#redactor} replaces it: API
     * keys and tokens of the common providers, bearer headers, {@code key=value} secrets, private
     * keys and URL passwords, each replaced by {@code [REDACTED_SECRET]}. Thread-safe; shared.
     *
     * @return the built-in redactor
     */
    public static SecretRedactor defaults() {
        return BUILT_IN;
    }
}
