package dev.mnemo.internal.redact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.internal.FreshClasses;
import org.junit.jupiter.api.Test;

/**
 * Every engine makes a redactor when it opens, and most opens never redact (instructions, {@code
 * mnemo status}): making one must not compile the rules' patterns. Checked in a class loader of its
 * own, which can say whether the rules' holder class was loaded.
 */
class RedactorColdStartTest {

    private static final String REDACTOR = "dev.mnemo.internal.redact.DefaultSecretRedactor";
    private static final String RULES = REDACTOR + "$Rules";

    @Test
    void makingARedactor_compilesNoRules() throws Exception {
        FreshClasses fresh = new FreshClasses(getClass().getClassLoader(), "dev.mnemo.");

        Class.forName(REDACTOR, true, fresh).getConstructor().newInstance();

        assertThat(fresh.loaded(REDACTOR)).isTrue();
        assertThat(fresh.loaded(RULES)).isFalse();
    }

    @Test
    void firstRedaction_compilesTheRulesAndRedacts() throws Exception {
        // The control: the same check sees the rules once a text is redacted.
        FreshClasses fresh = new FreshClasses(getClass().getClassLoader(), "dev.mnemo.");
        Object redactor = Class.forName(REDACTOR, true, fresh).getConstructor().newInstance();

        Object redacted = redactor.getClass().getMethod("redact", String.class)
                .invoke(redactor, "key sk-abcdefghijklmnopqrstuvwxyz123456");

        assertThat(redacted).isEqualTo("key [REDACTED_SECRET]");
        assertThat(fresh.loaded(RULES)).isTrue();
    }
}
