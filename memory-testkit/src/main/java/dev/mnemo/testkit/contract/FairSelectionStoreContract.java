package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.SelectionPolicy;
import dev.mnemo.spi.Phase2SelectionParams;
import dev.mnemo.spi.Stage1Output;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fair Phase 2 selection ({@code selection_policy = "fair"}, {@link dev.mnemo.spi.FairSelection}):
 * a full selection keeps places for the newest memories no consolidation has used, usage counts
 * decay with the half-life, and with no reserve and a long half-life it selects what Codex's
 * ranking selects. Eligibility is Codex's (approval, thread mode, payload, the unused window), and
 * the {@code CODEX} policy through the parameter record is the three-argument selection.
 *
 * <p>One role's contract: a store that serves this role extends it alone (its fixtures also write
 * thread rows and record consolidated threads); {@link MemoryStoreContract} runs it, with every
 * other role, for a whole store.
 */
public abstract class FairSelectionStoreContract extends MemoryStoreContractSupport {

    @Test
    void aFullSelection_keepsAPlaceForANeverSelectedNewMemory_overAHeavilyCitedOldOne() {
        storeMemory("old-a", version(100));
        storeMemory("old-b", version(101));
        consolidate(NOW.minus(Duration.ofDays(2)), "old-a", "old-b");
        store.recordConsolidatedThreads(List.of("old-a", "old-b"), NOW.minus(Duration.ofDays(2)));
        cite(5, NOW.minus(Duration.ofHours(2)), "old-a", "old-b");
        storeMemory("new", version(102));

        assertThat(ids(store.phase2InputSelection(fair(2, 30, 10), NOW))).containsExactly("new", "old-b");
        assertThat(ids(store.phase2InputSelection(2, 30, NOW))).as("Codex's ranking").containsExactly("old-a", "old-b");
    }

    @Test
    void aMemoryAConsolidationUsed_orNowSelected_isNotNew() {
        storeMemory("cited", version(100));
        cite(3, NOW, "cited");
        storeMemory("never", version(101));
        storeMemory("selected", version(104));
        consolidate(NOW.minus(Duration.ofDays(1)), "selected");
        storeMemory("recorded", version(105));
        store.recordConsolidatedThreads(List.of("recorded"), NOW.minus(Duration.ofDays(3)));

        assertThat(ids(store.phase2InputSelection(fair(2, 30, 10), NOW))).containsExactly("cited", "never");
        assertThat(ids(store.phase2InputSelection(fair(2, 30, 0), NOW))).as("no reserve: by ranking")
                .containsExactly("cited", "recorded");
    }

    @Test
    void withNoReserveAndALongHalfLife_itSelectsWhatCodexSelects() {
        for (int i = 0; i < 8; i++) {
            storeMemory("t-" + i, version(100 + i));
        }
        cite(4, NOW.minus(Duration.ofDays(3)), "t-1", "t-6");
        cite(2, NOW.minus(Duration.ofDays(1)), "t-3");
        cite(2, NOW.minus(Duration.ofDays(5)), "t-5");
        cite(1, NOW, "t-0");
        consolidate(NOW.minus(Duration.ofDays(1)), "t-1", "t-2");

        for (int limit = 0; limit <= 9; limit++) {
            List<Stage1Output> codex = store.phase2InputSelection(limit, 30, NOW);
            assertThat(store.phase2InputSelection(fair(limit, 3650, 0), NOW)).as("limit %s", limit).isEqualTo(codex);
        }
    }

    @Test
    void decay_letsAFreshCitationOutrankAnOldLargeCount() {
        storeMemory("old-large", version(100));
        cite(8, NOW.minus(Duration.ofDays(25)), "old-large");
        storeMemory("fresh-small", version(101));
        cite(2, NOW, "fresh-small");

        assertThat(ids(store.phase2InputSelection(fair(1, 5, 0), NOW))).containsExactly("fresh-small");
        assertThat(ids(store.phase2InputSelection(1, 30, NOW))).as("Codex's ranking").containsExactly("old-large");
    }

    @Test
    void eligibility_isCodexs() {
        storeMemory("eligible", version(100));
        storeMemory("awaiting", version(101), NOW, true);
        storeMemory("polluted", version(102));
        store.markThreadPolluted("polluted", NOW);
        storeMemory("disabled", version(103));
        store.setThreadMemoryMode("disabled", MemoryMode.DISABLED, NOW);
        storeMemory("stale", Instant.ofEpochSecond(NOW.minus(Duration.ofDays(40)).getEpochSecond()));
        storeMemory("stale-use", Instant.ofEpochSecond(NOW.minus(Duration.ofDays(45)).getEpochSecond()));
        cite(9, NOW.minus(Duration.ofDays(31)), "stale-use");

        assertThat(ids(store.phase2InputSelection(fair(10, 30, 50), NOW))).containsExactly("eligible");
        assertThat(ids(store.phase2InputSelection(10, 30, NOW))).containsExactly("eligible");
        assertThat(store.phase2InputSelection(fair(0, 30, 50), NOW)).isEmpty();
    }

    @Test
    void theCodexPolicy_isTheThreeArgumentSelection() {
        storeMemory("a", version(100));
        storeMemory("b", version(101));
        storeMemory("c", version(102));
        cite(1, NOW, "a");

        Phase2SelectionParams codex = new Phase2SelectionParams(2, 30, SelectionPolicy.CODEX, 30, 50);

        assertThat(store.phase2InputSelection(codex, NOW)).isEqualTo(store.phase2InputSelection(2, 30, NOW));
    }

    /** {@code times} citations of each thread at {@code at}. */
    private void cite(int times, Instant at, String... threadIds) {
        for (int i = 0; i < times; i++) {
            store.recordUsage(List.of(threadIds), at);
        }
    }

    private static Phase2SelectionParams fair(int limit, int halfLifeDays, int sharePercent) {
        return new Phase2SelectionParams(limit, 30, SelectionPolicy.FAIR, halfLifeDays, sharePercent);
    }
}
