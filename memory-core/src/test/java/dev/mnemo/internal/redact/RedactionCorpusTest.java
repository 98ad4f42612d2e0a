package dev.mnemo.internal.redact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.internal.rollout.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The planted-secret corpus in {@code redaction/corpus.tsv}: every secret, in every format, is gone
 * after redaction. And the redactor over the real fixture rollouts, which hold no real secret: every
 * match there is a false positive, counted and printed for {@code docs/reliability.md}.
 */
class RedactionCorpusTest {

    private final DefaultSecretRedactor redactor = new DefaultSecretRedactor();

    record Planted(String format, String text, String secret) {}

    static List<Planted> corpus() throws IOException {
        List<Planted> rows = new ArrayList<>();
        try (InputStream in = RedactionCorpusTest.class.getResourceAsStream("/redaction/corpus.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cols = line.split("\t");
                rows.add(new Planted(cols[0], cols[1].replace("\\n", "\n"), cols[2].replace("\\n", "\n")));
            }
        }
        return rows;
    }

    @Test
    void corpus_holdsAtLeastSixtySecretsInFifteenFormats() throws IOException {
        List<Planted> rows = corpus();
        assertThat(rows).hasSizeGreaterThanOrEqualTo(60);
        assertThat(rows.stream().map(Planted::format).distinct().count()).isGreaterThanOrEqualTo(15);
    }

    @Test
    void redact_removesEveryPlantedSecret() throws IOException {
        List<String> leaked = new ArrayList<>();
        for (Planted row : corpus()) {
            String out = redactor.redact(row.text());
            if (out.contains(row.secret()) || !out.contains(DefaultSecretRedactor.REDACTED)) {
                leaked.add(row.format() + ": " + out);
            }
        }
        assertThat(leaked).as("secrets that survived redaction").isEmpty();
    }

    @Test
    void redact_aloneOnEachSecretLeavesNothingOfIt() throws IOException {
        // The same secrets embedded in a longer realistic text, two per line, separated by prose.
        List<Planted> rows = corpus();
        StringBuilder text = new StringBuilder();
        for (Planted row : rows) {
            text.append("step ").append(row.format()).append(": ").append(row.text()).append(" and then\n");
        }
        String out = redactor.redact(text.toString());
        assertThat(rows).allSatisfy(row -> assertThat(out).doesNotContain(row.secret()));
    }

    private static final Pattern MARKER = Pattern.compile(Pattern.quote(DefaultSecretRedactor.REDACTED));

    /**
     * The fixtures are public sessions with no credentials in them, so every redaction is a false
     * positive. The count is pinned so that a new rule that starts eating ordinary text shows up
     * (5 before code values were spared, all Codex's assignment rule on quoted TypeScript; 0 since).
     */
    @Test
    void fixtures_falsePositivesAreCountedAndFew() throws IOException {
        Map<String, Integer> byRule = new TreeMap<>();
        long bytes = 0;
        List<String> samples = new ArrayList<>();
        for (Path file : Fixtures.all()) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                bytes += line.length();
                redactor.matchCounts(line).forEach((rule, n) -> byRule.merge(rule, n, Integer::sum));
                String out = redactor.redact(line);
                Matcher m = MARKER.matcher(out);
                while (m.find() && samples.size() < 40) {
                    int from = Math.max(0, m.start() - 40);
                    samples.add(file.getFileName() + ": …" + out.substring(from, Math.min(out.length(), m.end() + 10))
                            .replace("\n", "\\n") + "…");
                }
            }
        }
        int total = byRule.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("[redaction-false-positives] fixtures=" + Fixtures.all().size() + " chars=" + bytes
                + " total=" + total + " byRule=" + byRule);
        samples.forEach(s -> System.out.println("[redaction-false-positive] " + s));
        assertThat(total).as("false positives over the real fixtures, by rule: %s", byRule).isZero();
    }
}
