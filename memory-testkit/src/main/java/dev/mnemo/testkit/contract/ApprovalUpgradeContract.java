package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A store written before approval ({@code approval = "ask"}) opened by a {@link MemoryStore} that
 * has it: every memory it held reads as approved, so consolidation keeps using it and nothing waits
 * for a person, and what is written afterwards may await approval.
 *
 * <p>A store's schema-upgrade test extends this class (the newest upgrade contract, which keeps the
 * older ones' tests) and provides {@link #openUpgraded} as {@link ProjectUpgradeContract} describes
 * it: data written before projects was written before approval too.
 */
public abstract class ApprovalUpgradeContract extends ProjectUpgradeContract {

    @Test
    void upgradedStore_readsEarlierMemoriesAsApproved_andNewOnesMayWait() throws Exception {
        try (MemoryStore store = openUpgraded(dir)) {
            assertThat(store.stage1OutputsAwaitingApproval()).isEmpty();
            assertThat(store.pendingNotes()).isEmpty();
            assertThat(store.phase2InputSelection(10, 30, WRITTEN_AT)).extracting(Stage1Output::threadId)
                    .containsExactly(THREAD_ID);
            assertThat(store.listStage1OutputsForGlobal(10)).extracting(Stage1Output::threadId)
                    .containsExactly(THREAD_ID);
            assertThat(store.approveStage1Output(THREAD_ID, WRITTEN_AT, WRITTEN_AT)).as("already approved").isFalse();

            Instant newer = WRITTEN_AT.plusSeconds(60);
            JobClaim claim = store.tryClaimStage1Job(THREAD_ID, "worker-1", newer, Duration.ofHours(1), 8, newer);
            assertThat(store.markStage1Succeeded(THREAD_ID, claim.token(), newer,
                    new Stage1Result("remembered after approval came", "summary", Optional.empty()), newer, true))
                    .isTrue();

            assertThat(store.stage1OutputsAwaitingApproval()).extracting(Stage1Output::sourceUpdatedAt)
                    .containsExactly(newer);
            assertThat(store.phase2InputSelection(10, 30, newer)).isEmpty();
        }
    }
}
