package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.Stage1Output;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The read path's usage counts and the retention of stage-1 memories: a citation updates usage,
 * pruning removes stale unselected memories in batches and spares the ones it is told to keep —
 * Codex's state-DB tests (write-sheet §10.5).
 *
 * <p>Part of {@link MemoryStoreContract}, which a store's test extends; it needs a store that also
 * keeps threads and Phase 2 jobs.
 */
public abstract class RetentionStoreContract extends MemoryStoreContractSupport {

    @Test // §10.5 #28
    void record_stage1_output_usage_updates_usage_metadata() {
        storeMemory("a", version(100));
        storeMemory("b", version(100));
        Instant citedAt = NOW.plusSeconds(5);

        assertThat(store.recordUsage(List.of("a", "a", "b", "missing"), citedAt)).isEqualTo(3);

        Stage1Output a = store.stage1Output("a").orElseThrow();
        Stage1Output b = store.stage1Output("b").orElseThrow();
        assertThat(a.usageCount()).isEqualTo(2);
        assertThat(b.usageCount()).isEqualTo(1);
        assertThat(a.lastUsage()).contains(citedAt);
        assertThat(b.lastUsage()).contains(citedAt);
    }

    @Test // §10.5 #32
    void prune_stage1_outputs_for_retention_prunes_stale_unselected_rows_only() {
        storeMemory("stale-unused", Instant.ofEpochSecond(NOW.minus(Duration.ofDays(60)).getEpochSecond()));
        storeMemory("stale-used", Instant.ofEpochSecond(NOW.minus(Duration.ofDays(60)).getEpochSecond()));
        store.recordUsage(List.of("stale-used"), NOW.minus(Duration.ofDays(40)));
        storeMemory("stale-selected", Instant.ofEpochSecond(NOW.minus(Duration.ofDays(45)).getEpochSecond()));
        storeMemory("fresh-used", Instant.ofEpochSecond(NOW.minus(Duration.ofDays(50)).getEpochSecond()));
        store.recordUsage(List.of("fresh-used"), NOW.minus(Duration.ofDays(2)));
        consolidate(NOW.minus(Duration.ofDays(1)), "stale-selected");
        int stage1Jobs = jobCount(STAGE1, "done");

        assertThat(store.pruneStage1Outputs(30, 200, NOW)).isEqualTo(2);

        assertThat(store.stage1Output("stale-unused")).isEmpty();
        assertThat(store.stage1Output("stale-used")).isEmpty();
        assertThat(store.stage1Output("stale-selected")).isPresent();
        assertThat(store.stage1Output("fresh-used")).isPresent();
        assertThat(jobCount(STAGE1, "done")).isEqualTo(stage1Jobs).isEqualTo(4);
    }

    @Test // §10.5 #33
    void prune_stage1_outputs_for_retention_respects_batch_limit() {
        for (String id : List.of("a", "b", "c")) {
            storeMemory(id, Instant.ofEpochSecond(NOW.minus(Duration.ofDays(60)).getEpochSecond()));
        }

        assertThat(store.pruneStage1Outputs(30, 2, NOW)).isEqualTo(2);
        assertThat(store.pruneStage1Outputs(30, 0, NOW)).isZero();

        assertThat(store.status(NOW).stage1Outputs()).isEqualTo(1);
    }

    @Test // issue 36: a forget's re-consolidation needs the memories a kept consolidation used
    void prune_spares_the_memories_of_the_threads_it_is_told_to_keep_and_still_honours_the_limit() {
        for (String id : List.of("a", "b", "c", "d")) {
            storeMemory(id, Instant.ofEpochSecond(NOW.minus(Duration.ofDays(60)).getEpochSecond()));
        }

        assertThat(store.pruneStage1Outputs(30, 1, NOW, java.util.Set.of("a", "b"))).isEqualTo(1);
        assertThat(store.pruneStage1Outputs(30, 200, NOW, java.util.Set.of("a", "b"))).isEqualTo(1);

        assertThat(store.stage1Output("a")).isPresent();
        assertThat(store.stage1Output("b")).isPresent();
        assertThat(store.stage1Output("c")).isEmpty();
        assertThat(store.stage1Output("d")).isEmpty();
    }
}
