package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a forget needs beyond the rows ({@link dev.mnemo.spi.ForgetStore}): the first time a
 * consolidation used each thread, kept past the thread's deletion, and durable pending forgets,
 * shown in the status and completed by name.
 *
 * <p>One role's contract: a store that serves this role extends it alone (its fixtures also write
 * thread rows); {@link MemoryStoreContract} runs it, with every other role, for a whole store.
 */
public abstract class ForgetStoreContract extends MemoryStoreContractSupport {

    @Test // issue 36: a forget must know a thread was consolidated however little history is kept
    void consolidatedThreads_keepTheFirstTime_surviveTheThreadsDelete_andGoWhenTheForgetCompletes() {
        addThread("a");
        assertThat(store.firstConsolidated("a")).isEmpty();
        Instant first = NOW.minus(Duration.ofDays(3));

        store.recordConsolidatedThreads(List.of("a", "b"), NOW);
        store.recordConsolidatedThreads(List.of("a"), first);
        store.recordConsolidatedThreads(List.of("a"), NOW.plusSeconds(60));
        store.deleteThread("a", NOW);

        assertThat(store.firstConsolidated("a")).contains(first);
        assertThat(store.firstConsolidated("b")).contains(NOW);
        store.completeForgets(List.of("a"));
        assertThat(store.firstConsolidated("a")).isEmpty();
        assertThat(store.firstConsolidated("b")).contains(NOW);
    }

    @Test // issue 36: a forget deferred to a running consolidation survives the run and the process
    void pendingForgets_areDurable_shownInStatus_andCompletedByName() {
        assertThat(store.pendingForgets()).isEmpty();

        store.addPendingForget("a", NOW);
        store.addPendingForget("b", NOW);
        store.addPendingForget("a", NOW.plusSeconds(5));

        assertThat(store.pendingForgets()).containsExactlyInAnyOrder("a", "b");
        assertThat(store.status(NOW).pendingForgets()).containsExactly("a", "b");
        store.completeForgets(List.of("a"));
        assertThat(store.pendingForgets()).containsExactly("b");
        store.clearMemoryData();
        assertThat(store.pendingForgets()).isEmpty();
    }
}
