package dev.mnemo.internal.redact;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Redaction keeps the evidence it does not need to hide intact: code that names a secret (an
 * identifier, a call, a template or environment reference) is not one, and a redaction never eats
 * an escape sequence or a closing quote of the text around the secret. The first three cases are
 * the false positives found in the real fixtures.
 */
class RedactionPrecisionTest {

    private static final String R = DefaultSecretRedactor.REDACTED;
    private final DefaultSecretRedactor redactor = new DefaultSecretRedactor();

    private void assertUnchanged(String text) {
        assertThat(redactor.redact(text)).isEqualTo(text);
        assertThat(DefaultSecretRedactor.redactByFullScan(text)).isEqualTo(text);
        assertThat(redactor.matchCounts(text)).isEmpty();
    }

    @Test
    void functionCallAssignedToToken_insideAJsonStringKeepsItsEscapedNewline() {
        // As the rollout file holds it: the newline is the two characters backslash and n.
        assertUnchanged("\"  // Generate token and expiration\\n  const token = generateSecureToken();\\n  const x\"");
        assertUnchanged("  const token = generateSecureToken();\n  const x = 1;");
    }

    @Test
    void identifierPassedAsApiKey_isNotASecret() {
        assertUnchanged("const anthropicClient = new AnthropicClient({ apiKey: adminApiKey });");
        assertUnchanged("headers: { token: this.sessionToken, secret: config.signingSecret }");
        assertUnchanged("api_key = settings.openai_api_key");
        assertUnchanged("password = DEFAULT_ADMIN_PASSWORD;");
    }

    @Test
    void templateReferenceInATemplateLiteral_keepsTheClosingBacktick() {
        assertUnchanged("redirectTo: `${env.NEXT_PUBLIC_APP_URL}/auth/accept-invite?token=${token}`,\\n      },");
    }

    @Test
    void templateAndEnvironmentReferences_areNotSecrets() {
        assertUnchanged("token: {{ secrets.GITHUB_TOKEN }}");
        assertUnchanged("password={{db_password}}");
        assertUnchanged("apiKey: process.env.OPENAI_API_KEY,");
        assertUnchanged("API_KEY=$OPENAI_API_KEY2");
        assertUnchanged("token=${GITHUB_TOKEN}");
        assertUnchanged("secret = os.environ[\"APP_SECRET\"]");
        assertUnchanged("DATABASE_URL=postgres://app:${DB_PASSWORD}@db.internal:5432/prod");
    }

    @Test
    void secretBeforeAnEscapeSequence_isRedactedAndTheEscapeKept() {
        assertThat(redactor.redact("\"export API_KEY=Xy12abcd34ef\\nrun\"")).isEqualTo("\"export API_KEY=" + R + "\\nrun\"");
        assertThat(redactor.redact("token=abc123def456\\tnext")).isEqualTo("token=" + R + "\\tnext");
        assertThat(redactor.redact("{\"cmd\":\"curl -d password=Qw3rty12345\\\" x\"}"))
                .isEqualTo("{\"cmd\":\"curl -d password=" + R + "\\\" x\"}");
    }

    @Test
    void secretBeforeAClosingQuote_keepsTheQuote() {
        assertThat(redactor.redact("run `export GITHUB_TOKEN=5tyOXd5qHivT4N3Y9z2w` first"))
                .isEqualTo("run `export GITHUB_TOKEN=" + R + "` first");
        assertThat(redactor.redact("password: 'hunter2hunter2'")).isEqualTo("password: '" + R + "'");
        assertThat(redactor.redact("`token=abc123def456`")).isEqualTo("`token=" + R + "`");
    }

    @Test
    void plainWordsAndRandomValues_areStillSecrets() {
        assertThat(redactor.redact("password=correcthorsebattery")).isEqualTo("password=" + R);
        assertThat(redactor.redact("token=VmdTUyyckTkTJDcLsk")).isEqualTo("token=" + R);
        assertThat(redactor.redact("git clone https://bob:myPassword@github.com/x/y.git"))
                .isEqualTo("git clone https://bob:" + R + "@github.com/x/y.git");
        assertThat(redactor.redact("API_KEY=$ecretPa55word")).isEqualTo("API_KEY=" + R);
    }
}
