package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.SecretRedactor;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SecretRedactor} must do: at least Codex's four patterns, plain text untouched,
 * idempotent, and never an exception, whatever the input.
 *
 * <p>An implementation's test extends this class and provides {@link #redactor()}; a redactor that
 * adds patterns on top of the default ones passes it as well.
 */
public abstract class SecretRedactorContract {

    /**
     * The redactor under test; called once per test.
     *
     * @return the redactor, with at least the default patterns
     */
    protected abstract SecretRedactor redactor();

    @Test
    void redactsCodexsFourPatterns() {
        SecretRedactor r = redactor();
        assertThat(r.redact("key sk-abcdefghijklmnopqrstuvwxyz")).isEqualTo("key [REDACTED_SECRET]");
        assertThat(r.redact("id AKIAABCDEFGHIJKLMNOP end")).isEqualTo("id [REDACTED_SECRET] end");
        assertThat(r.redact("Authorization: Bearer abcdefghijklmnop1234")).contains("Bearer [REDACTED_SECRET]")
                .doesNotContain("abcdefghijklmnop1234");
        assertThat(r.redact("api_key=abcdefgh")).isEqualTo("api_key=[REDACTED_SECRET]");
        assertThat(r.redact("password: \"abcdefgh\"")).isEqualTo("password: \"[REDACTED_SECRET]\"");
    }

    @Test
    void leavesPlainTextAndShortLookalikesAlone() {
        SecretRedactor r = redactor();
        String plain = "secret Bearer short password=short sk-short; the build uses Maven 3.8.7 on JDK 17.";
        assertThat(r.redact(plain)).isEqualTo(plain);
        assertThat(r.redact("")).isEmpty();
    }

    @Test
    void isIdempotent() {
        SecretRedactor r = redactor();
        String once = r.redact("token=abcdefgh12345678 and sk-abcdefghijklmnopqrstuvwxyz and AKIAABCDEFGHIJKLMNOP");
        assertThat(r.redact(once)).isEqualTo(once);
    }

    @Test
    void neverThrows_onRandomControlCharactersSurrogatesOrLongInput() {
        SecretRedactor r = redactor();
        Random random = new Random(42);
        for (int i = 0; i < 200; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(400);
            for (int j = 0; j < length; j++) {
                text.append((char) random.nextInt(0x10000)); // includes lone surrogates and controls
            }
            assertThat(r.redact(text.toString())).isNotNull();
        }
        assertThat(r.redact("a".repeat(2_000_000))).hasSize(2_000_000);
    }
}
