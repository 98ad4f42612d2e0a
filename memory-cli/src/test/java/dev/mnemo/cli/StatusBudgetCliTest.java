package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.MemoryEngine;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mnemo status} shows today's extraction tokens against {@code max_extraction_tokens_per_day}. */
class StatusBudgetCliTest {

    @TempDir
    Path temp;

    private Path home() {
        return temp.resolve("home");
    }

    private MnemoCliTest.Result mnemo(String... args) {
        return MnemoCliTest.run(temp, null, args);
    }

    @Test
    void status_showsASpentBudget_asExhaustedUntilMidnightUtc_inTextAndJson() throws IOException {
        try (MemoryEngine engine = MemoryEngine.builder().home(home()).build()) {
            engine.admin().status();
        }
        Files.writeString(home().resolve("config.toml"), "[memories]\nmax_extraction_tokens_per_day = 10000\n");
        LocalDate today = ExtractionBudget.dayOf(Instant.now());
        try (SqliteMemoryStore store = SqliteMemoryStore.open(home().resolve("mnemo.sqlite"))) {
            assertThat(store.reserveExtractionTokens(today, 10_000, 10_000, Instant.now())).isTrue();
        }

        MnemoCliTest.Result status = mnemo("--home", home().toString(), "status");
        MnemoCliTest.Result json = mnemo("--home", home().toString(), "status", "--json");

        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(status.out()).contains("Extraction budget:   exhausted until 00:00 UTC (10,000 of 10,000 tokens"
                + " spent on " + today + ")");
        assertThat(json.out().replaceAll("\\s+", " ")).contains("\"extraction_budget\" : { \"day\" : \"" + today
                + "\", \"spent_tokens\" : 10000, \"limit_tokens\" : 10000, \"exhausted\" : true,");
    }

    @Test
    void status_withoutABudget_saysNothingOfOne() {
        try (MemoryEngine engine = MemoryEngine.builder().home(home()).build()) {
            engine.admin().status();
        }
        MnemoCliTest.Result status = mnemo("--home", home().toString(), "status");
        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(status.out()).doesNotContain("Extraction budget");
    }
}
