package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretRedactorsTest {

    @Test
    void defaults_isTheBuiltInRedactor_sharedAndReplacingProviderKeys() {
        String key = "sk-proj-" + "Q1w2E3r4T5y6U7i8O9p0".repeat(2);

        assertThat(SecretRedactors.defaults().redact("export OPENAI_API_KEY=" + key + " and go"))
                .doesNotContain(key).contains("[REDACTED_SECRET]").endsWith(" and go");
        assertThat(SecretRedactors.defaults()).isSameAs(SecretRedactors.defaults());
    }
}
