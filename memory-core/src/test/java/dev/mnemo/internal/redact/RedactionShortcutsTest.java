package dev.mnemo.internal.redact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.internal.rollout.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The redactor skips rules whose hints are absent and tries patterns only where a hint starts;
 * these shortcuts must never change the result of applying every pattern everywhere.
 */
class RedactionShortcutsTest {

    private final DefaultSecretRedactor redactor = new DefaultSecretRedactor();

    @Test
    void sameResultAsAFullScan_onEveryFixtureLine() throws IOException {
        for (Path file : Fixtures.all()) {
            for (String line : Files.readAllLines(file)) {
                assertThat(redactor.redact(line)).as("%s", file.getFileName())
                        .isEqualTo(DefaultSecretRedactor.redactByFullScan(line));
            }
        }
    }

    @Test
    void sameResultAsAFullScan_onSeededMixesOfSecretsCaseUnicodeAndUrls() {
        String[] parts = {"API_KEY=", "Api-Key: ", "TOKEN = '", "Bearer ", "bearer\t", "sk-", "sk-proj-", "AKIA",
            "ghp_", "xoxb-", "AIza", "eyJ", "sk_live_", "https://", "user:", "@host", "PassWord: \"", "secret=",
            "ſecret=", "\u212Aey", "İ", "task-", "disk-", "abcdefghijklmnopqrstuvwxyz0123456789", "ABCDEFGHIJKLMNOP",
            "0123456789", "_", "-", ".", " ", "\n", "\"", "'", "=", ":", "é", "日本", "://", "git+ssh://", "x.y-z",
            "abcdefghijklmnopqrstuvwxyzabcde", "user:pa55word@", "${TOKEN}@", "[::1]", "/", "@"};
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder text = new StringBuilder();
            int n = 1 + random.nextInt(12);
            for (int j = 0; j < n; j++) {
                text.append(parts[random.nextInt(parts.length)]);
            }
            String input = text.toString();
            assertThat(redactor.redact(input)).as(input).isEqualTo(DefaultSecretRedactor.redactByFullScan(input));
        }
    }
}
