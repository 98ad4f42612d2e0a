package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.Stage1ClaimParams;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Phase 1 claim scan stays on its index with the end mark in its idle gate: the threads are
 * searched through {@code idx_threads_memory_mode_updated_at_ms} and come out in its order, with no
 * table scan and no sort.
 */
class ClaimQueryPlanTest {

    @TempDir
    Path dir;

    @Test
    void claimScan_searchesTheModeAndUpdateIndex_andNeedsNoSort() {
        Stage1ClaimParams params = new Stage1ClaimParams("current", "worker", 5_000, 8, 30, 6,
                List.of("cli", "app"), Duration.ofHours(1));
        ThreadQueries.CandidateQuery query = ThreadQueries.candidateQuery(params, Instant.parse("2026-06-01T12:00:00Z"));

        List<String> plan;
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("mnemo.sqlite"))) {
            plan = store.onConnection(connection -> {
                List<String> details = new ArrayList<>();
                try (PreparedStatement statement = connection.jdbc().prepareStatement("EXPLAIN QUERY PLAN "
                        + query.sql())) {
                    for (int i = 0; i < query.args().length; i++) {
                        statement.setObject(i + 1, query.args()[i]);
                    }
                    try (ResultSet rows = statement.executeQuery()) {
                        while (rows.next()) {
                            details.add(rows.getString("detail"));
                        }
                    }
                }
                return details;
            });
        }

        assertThat(plan).anySatisfy(step -> assertThat(step)
                .startsWith("SEARCH threads USING INDEX idx_threads_memory_mode_updated_at_ms (memory_mode=? AND updated_at_ms>?)"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).startsWith("SCAN threads"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
    }
}
