package dev.mnemo.internal.redact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.internal.rollout.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The default redactor's own vectors. The published {@code SecretRedactorContract} runs against it
 * in memory-integration-tests ({@code DefaultSecretRedactorContractTest}): memory-core cannot
 * depend on memory-testkit, which depends on it.
 */
class DefaultSecretRedactorTest {

    private static final String R = "[REDACTED_SECRET]";
    private final DefaultSecretRedactor redactor = new DefaultSecretRedactor();

    // ---- Codex's load_regex vectors (write sheet §4.6) ------------------------------------------

    @Test
    void codexVectors_redactKeyAssignmentsKeepingTheKeyAndQuotes() {
        assertThat(redactor.redact("api_key=abcdefgh")).isEqualTo("api_key=" + R);
        assertThat(redactor.redact("password: \"abcdefgh\"")).isEqualTo("password: \"" + R + "\"");
    }

    @Test
    void codexVectors_leaveShortValuesAlone() {
        String text = "secret Bearer short password=short sk-short";
        assertThat(redactor.redact(text)).isEqualTo(text);
    }

    @Test
    void codexPatterns_openAiAwsAndBearer() {
        assertThat(redactor.redact("key sk-abcdefghijklmnopqrstuvwxyz123456 here"))
                .isEqualTo("key " + R + " here");
        assertThat(redactor.redact("aws AKIAIOSFODNN7EXAMPLE done")).isEqualTo("aws " + R + " done");
        assertThat(redactor.redact("Authorization: bearer abcdef0123456789.XYZ-_"))
                .isEqualTo("Authorization: Bearer " + R);
        assertThat(redactor.redact("TOKEN = 'hunter2hunter2'")).isEqualTo("TOKEN = '" + R + "'");
    }

    // ---- Mnemo's additional provider formats ----------------------------------------------------

    @Test
    void github_allTokenKinds() {
        assertThat(redactor.redact("ghp_" + "a1B2".repeat(9))).isEqualTo(R);
        assertThat(redactor.redact("x gho_" + "Z9y8".repeat(9) + " y")).isEqualTo("x " + R + " y");
        assertThat(redactor.redact("ghs_" + "0000aaaa".repeat(5))).isEqualTo(R);
        assertThat(redactor.redact("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV"))
                .isEqualTo(R);
    }

    @Test
    void slackGoogleStripeAnthropic() {
        assertThat(redactor.redact("xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp")).isEqualTo(R);
        assertThat(redactor.redact("xoxp-1234567890-abcdef")).isEqualTo(R);
        assertThat(redactor.redact("maps AIzaSyA-1234567890abcdefghijklmnopqrstu!"))
                .isEqualTo("maps " + R + "!");
        assertThat(redactor.redact("sk_live_4eC39HqLyjWDarjtT1zdp7dc")).isEqualTo(R);
        assertThat(redactor.redact("rk_live_4eC39HqLyjWDarjtT1zdp7dc")).isEqualTo(R);
        assertThat(redactor.redact("ANTHROPIC_API_KEY is sk-ant-api03-AbCdEf_GhIjKlMnOpQrStUvWx-yz0123456789"))
                .isEqualTo("ANTHROPIC_API_KEY is " + R);
    }

    @Test
    void jwt() {
        String jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ"
                + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
        assertThat(redactor.redact("cookie=" + jwt + ";")).isEqualTo("cookie=" + R + ";");
    }

    @Test
    void pemPrivateKeyBlocks_completeAndCutShort() {
        String body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\n";
        String complete = "before\n-----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----\nafter";
        assertThat(redactor.redact(complete))
                .isEqualTo("before\n-----BEGIN RSA PRIVATE KEY-----\n" + R + "\n-----END RSA PRIVATE KEY-----\nafter");

        String cut = "-----BEGIN PRIVATE KEY-----\n" + body;
        assertThat(redactor.redact(cut)).isEqualTo("-----BEGIN PRIVATE KEY-----\n" + R + "\n");
        String escaped = "\"-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\\n\"";
        assertThat(redactor.redact(escaped)).isEqualTo("\"-----BEGIN OPENSSH PRIVATE KEY-----\n" + R + "\\n\"");
    }

    @Test
    void urlCredentials_keepSchemeUserAndHost() {
        assertThat(redactor.redact("DATABASE_URL=postgres://app:s3cr3t-pw@db.internal:5432/prod"))
                .isEqualTo("DATABASE_URL=postgres://app:" + R + "@db.internal:5432/prod");
        assertThat(redactor.redact("git clone https://bob:p@ss@github.com/x/y.git"))
                .isEqualTo("git clone https://bob:" + R + "@github.com/x/y.git");
        assertThat(redactor.redact("see https://example.com:8080/path and mailto:me@example.com"))
                .isEqualTo("see https://example.com:8080/path and mailto:me@example.com");
    }

    @Test
    void redact_isIdempotent() {
        String text = "token=abcdefghijkl ghp_" + "a1B2".repeat(9) + " postgres://u:pwpwpwpw@h/db";
        String once = redactor.redact(text);
        assertThat(redactor.redact(once)).isEqualTo(once);
    }

    @Test
    void redact_neverThrows() {
        assertThat(redactor.redact(null)).isEmpty();
        assertThat(redactor.redact("")).isEmpty();
        String pathological = "-----BEGIN PRIVATE KEY-----" + " a".repeat(200_000) + "password=" + "=".repeat(100_000);
        assertThat(redactor.redact(pathological)).isNotNull();
    }

    // ---- no false positives on real rollouts ----------------------------------------------------

    @Test
    void fixtures_noPatternMatchesAnythingInTheRealSessions() throws IOException {
        long bytes = 0;
        Map<String, Integer> hits = new TreeMap<>();
        for (Path fixture : Fixtures.all()) {
            for (String line : Files.readAllLines(fixture)) {
                bytes += line.length();
                redactor.matchCounts(line).forEach((rule, count) -> hits.merge(rule, count, Integer::sum));
            }
        }
        // About 2.5 MB of real sessions (code, diffs, shell output) hold no secret. Every pattern
        // stays silent. Codex's own `token|secret|password|api_key = value` pattern used to hit five
        // lines of TypeScript quoted in tool outputs (`const token = generateSecureToken();` twice,
        // `?token=${token}` twice, `apiKey: adminApiKey` once); those values are code, now spared.
        assertThat(bytes).isGreaterThan(2_400_000);
        assertThat(hits).isEmpty();
    }

    @Test
    void fixtures_redactingAWholeSessionIsQuick() throws IOException {
        String session = Files.readString(Fixtures.fullSessions().get(0)); // 1.1 MB
        redactor.redact(session); // warm up
        long start = System.nanoTime();
        String redacted = redactor.redact(session);
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(redacted).hasSameSizeAs(session);
        assertThat(millis).as("ms to redact 1.1 MB").isLessThan(2_000);
    }
}
