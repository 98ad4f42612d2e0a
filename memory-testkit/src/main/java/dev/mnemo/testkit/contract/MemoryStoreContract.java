package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.SelectedInput;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link MemoryStore} must pass: Codex's 39 state-DB tests plus Mnemo's own
 * rules. The composite gathers one contract per role, each a class of its own that a store serving
 * only that role can extend alone: the thread registry ({@link ThreadStoreContract}, inherited),
 * and, run as nested classes against the same store, Phase 1 claims and completions
 * ({@link Stage1StoreContract}), failures ({@link Stage1FailureStoreContract}), usage and
 * retention ({@link RetentionStoreContract}), Phase 2 ({@link Phase2StoreContract}), the claim
 * preview ({@link Stage1PreviewStoreContract}), each memory's project
 * ({@link ProjectStoreContract}), approvals ({@link ApprovalStoreContract}), the spawn graph
 * ({@link SpawnGraphStoreContract}), the forget ledger ({@link ForgetStoreContract}) and ended
 * conversations ({@link ThreadEndStoreContract}). This
 * class's own tests are the rules that span roles: forgetting deletes the memory, released jobs
 * are reclaimable at once, the status read, selection rollback, memory modes.
 *
 * <p>An implementation's test extends this class and provides {@link #openStore(Path)} (open, or
 * create, the store kept in a test's temp folder; a second call for the same folder is a second
 * handle on the same data) and {@link #dropOwnershipToken} (null a job's ownership token behind
 * the store's back, as a crashed writer could). Each test gets a fresh folder and store, closed
 * after it; times are passed explicitly, so nothing sleeps.
 *
 * <pre>{@code
 * class MyStoreTest extends MemoryStoreContract {
 *     protected MemoryStore openStore(Path dir) { return MyStore.open(dir.resolve("state.db")); }
 *     protected void dropOwnershipToken(MemoryStore store, String kind, String jobKey) { ... }
 * }
 * }</pre>
 */
public abstract class MemoryStoreContract extends ThreadStoreContract {

    @Test
    void upsertThread_replacesTheRowButKeepsPollutedSticky() {
        addThread("a", NOW.minus(Duration.ofDays(2)));
        ThreadInfo updated = threadRow("a", NOW.minus(Duration.ofDays(1))).preview("new preview").build();
        store.upsertThread(updated);
        assertThat(store.thread("a")).contains(updated);

        store.markThreadPolluted("a", NOW);
        store.upsertThread(updated.toBuilder().memoryMode(MemoryMode.ENABLED).build());

        assertThat(mode("a")).isEqualTo(MemoryMode.POLLUTED);
        assertThat(store.claimStage1Jobs(claimParams(10, 10), NOW)).isEmpty();
    }

    @Test
    void upsertThread_neverLoosensADisabledModeButSetThreadMemoryModeDoes() {
        addThread("a", NOW.minus(Duration.ofDays(2)));
        store.setThreadMemoryMode("a", MemoryMode.DISABLED, NOW);

        store.upsertThread(store.thread("a").orElseThrow().toBuilder().preview("newer")
                .memoryMode(MemoryMode.ENABLED).build());

        assertThat(mode("a")).isEqualTo(MemoryMode.DISABLED);
        assertThat(store.thread("a").orElseThrow().preview()).isEqualTo("newer");
        store.setThreadMemoryMode("a", MemoryMode.ENABLED, NOW);
        assertThat(mode("a")).isEqualTo(MemoryMode.ENABLED);
    }

    @Test
    void upsertThread_asPolluted_forgetsItsMemory() {
        storeMemory("a", version(100));

        store.upsertThread(store.thread("a").orElseThrow().withMemoryMode(MemoryMode.POLLUTED));

        assertThat(store.stage1Output("a")).isEmpty();
    }

    @Test
    void markThreadPolluted_deletesTheStage1Memory() {
        storeMemory("a", version(100));
        storeMemory("b", version(100));

        assertThat(store.markThreadPolluted("a", NOW)).isTrue();

        assertThat(store.stage1Output("a")).isEmpty();
        assertThat(store.stage1Output("b")).isPresent();
        assertThat(store.status(NOW).stage1Outputs()).isEqualTo(1);
        assertThat(store.markThreadPolluted("missing", NOW)).isFalse();
    }

    @Test
    void markThreadPolluted_whileExtractionRuns_keepsTheResultOut() {
        addThread("a");
        String token = claim("a", version(100));
        store.markThreadPolluted("a", NOW);

        assertThat(store.markStage1Succeeded("a", token, version(100), result("a"), NOW)).isTrue();

        assertThat(store.stage1Output("a")).isEmpty();
        assertThat(jobCount(PHASE2, "pending")).isZero();
    }

    @Test
    void deleteThread_ofUnknownThread_returnsFalse() {
        storeMemory("a", version(100));

        assertThat(store.deleteThread("missing", NOW)).isFalse();
        assertThat(store.deleteThread("a", NOW)).isTrue();
        assertThat(store.deleteThread("a", NOW)).isFalse();
        assertThat(jobCount(PHASE2, "pending")).as("a was never consolidated").isEqualTo(1);
    }

    @Test
    void setThreadMemoryMode_disablesKeepsTheMemoryAndCanReEnable() {
        storeMemory("a", version(100));
        assertThat(store.setThreadMemoryMode("missing", MemoryMode.DISABLED, NOW)).isFalse();

        assertThat(store.setThreadMemoryMode("a", MemoryMode.DISABLED, NOW)).isTrue();
        assertThat(mode("a")).isEqualTo(MemoryMode.DISABLED);
        assertThat(store.stage1Output("a")).isPresent();
        assertThat(store.phase2InputSelection(10, 30, NOW)).isEmpty();

        assertThat(store.setThreadMemoryMode("a", MemoryMode.ENABLED, NOW)).isTrue();
        assertThat(ids(store.phase2InputSelection(10, 30, NOW))).containsExactly("a");
    }

    @Test
    void setThreadMemoryMode_polluted_forgetsLikeMarkThreadPolluted() {
        storeMemory("a", version(100));
        consolidate(NOW, "a");

        assertThat(store.setThreadMemoryMode("a", MemoryMode.POLLUTED, NOW)).isTrue();
        assertThat(store.setThreadMemoryMode("a", MemoryMode.POLLUTED, NOW)).as("exists, already polluted")
                .isTrue();
        assertThat(store.setThreadMemoryMode("missing", MemoryMode.POLLUTED, NOW)).isFalse();

        assertThat(mode("a")).isEqualTo(MemoryMode.POLLUTED);
        assertThat(store.stage1Output("a")).isEmpty();
        assertThat(jobCount(PHASE2, "pending")).isEqualTo(1);
    }

    @Test
    void releaseJobs_makesTheWorkersJobsReclaimableAtOnce() {
        addThread("a");
        addThread("b");
        String stage1Token = claim("a", version(100));
        JobClaim phase2 = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
        assertThat(store.tryClaimStage1Job("b", OTHER_WORKER, version(100), LEASE, 64, NOW).isClaimed()).isTrue();

        assertThat(store.releaseJobs(WORKER, "engine closed", NOW)).isEqualTo(2);

        MemoryStatus status = store.status(NOW);
        assertThat(status.runningLeases()).extracting(MemoryStatus.Lease::jobKey).containsExactly("b");
        assertThat(status.lastPhase2Failure()).contains("engine closed");
        assertThat(store.markStage1Succeeded("a", stage1Token, version(100), result("a"), NOW)).isFalse();
        assertThat(store.heartbeatPhase2Job(phase2.token(), LEASE, NOW)).isFalse();
        assertThat(store.tryClaimStage1Job("a", OTHER_WORKER, version(100), LEASE, 64, NOW).isClaimed()).isTrue();
        assertThat(store.tryClaimPhase2Job(OTHER_WORKER, LEASE, NOW).isClaimed()).isTrue();
        assertThat(store.releaseJobs("nobody", "engine closed", NOW)).isZero();
    }

    @Test
    void releaseJobs_doesNotSpendARetry() {
        addThread("a");
        for (int attempt = 1; attempt <= 2; attempt++) {
            String token = claim("a", version(100));
            store.markStage1Failed("a", token, "failure " + attempt, Duration.ZERO, NOW);
        }
        claim("a", version(100));
        store.releaseJobs(WORKER, "engine closed", NOW);

        String token = claim("a", version(100));
        assertThat(store.markStage1Failed("a", token, "third failure", Duration.ZERO, NOW)).isTrue();
        assertThat(tryClaim("a", version(100), NOW).outcome()).isEqualTo(ClaimOutcome.SKIPPED_RETRY_EXHAUSTED);
    }

    @Test
    void status_countsJobsLeasesThreadsAndPhase2Outcomes() {
        storeMemory("done", version(100));
        addThread("running");
        claim("running", version(100));
        addThread("failed");
        store.markStage1Failed("failed", claim("failed", version(100)), "bad json", RETRY_DELAY, NOW);
        store.upsertThread(threadRow("off", NOW).memoryMode(MemoryMode.DISABLED).build());

        MemoryStatus before = store.status(NOW);
        assertThat(before.jobCounts().get(STAGE1))
                .containsAllEntriesOf(Map.of("done", 1, "running", 1, "error", 1));
        assertThat(before.jobCounts().get(PHASE2)).containsEntry("pending", 1);
        assertThat(before.runningLeases()).singleElement().isEqualTo(
                new MemoryStatus.Lease(STAGE1, "running", WORKER, NOW.plus(LEASE)));
        assertThat(before.threadCounts()).isEqualTo(
                Map.of(MemoryMode.ENABLED, 3, MemoryMode.DISABLED, 1, MemoryMode.POLLUTED, 0));
        assertThat(before.stage1Outputs()).isEqualTo(1);
        assertThat(before.lastPhase2Success()).isEmpty();
        assertThat(before.lastPhase2Failure()).isEmpty();
        assertThat(before.lastStartupSkip()).isEmpty();
        assertThat(before.checkedAt()).isEqualTo(NOW);

        JobClaim failing = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
        store.markPhase2Failed(failing.token(), "failed_agent", Duration.ZERO, NOW);
        assertThat(store.status(NOW).lastPhase2Failure()).contains("failed_agent");

        Instant finished = NOW.plusSeconds(30);
        consolidate(finished, "done");
        MemoryStatus after = store.status(finished);
        assertThat(after.lastPhase2Success()).contains(finished);
        assertThat(after.lastPhase2Failure()).isEmpty();
        assertThat(after.jobCounts().get(PHASE2)).containsEntry("done", 1);
    }

    @Test // issue 36: a failure after a success does not make the status say "never"
    void status_keepsTheLastSuccessThroughALaterFailure() {
        Instant finished = NOW.plusSeconds(30);
        consolidate(finished);
        Instant later = finished.plus(Duration.ofHours(7));
        JobClaim failing = store.tryClaimPhase2JobNow(WORKER, LEASE, later);
        store.markPhase2Failed(failing.token(), "forget_pending: re-consolidating", Duration.ZERO, later);

        MemoryStatus status = store.status(later);
        assertThat(status.lastPhase2Success()).contains(finished);
        assertThat(status.lastPhase2Failure()).contains("forget_pending: re-consolidating");
        assertThat(status.lastPhase2RealFailure()).isEmpty();
    }

    @Test
    void replacePhase2Selection_marksExactlyTheGivenVersions() {
        storeMemory("a", version(100));
        storeMemory("b", version(100));
        storeMemory("c", version(100));
        consolidate(NOW, "a", "b");

        store.replacePhase2Selection(List.of(new SelectedInput("c", version(100)),
                new SelectedInput("b", version(99)), new SelectedInput("missing", version(100))));

        assertThat(store.stage1Output("a").orElseThrow().selectedSnapshot()).isEmpty();
        assertThat(store.stage1Output("b").orElseThrow().selectedSnapshot()).as("stale version").isEmpty();
        assertThat(store.stage1Output("c").orElseThrow().selectedSnapshot()).contains(version(100));
        assertThat(store.pruneStage1Outputs(0, 200, NOW.plus(Duration.ofDays(400)))).isEqualTo(2);
        assertThat(store.stage1Output("c")).isPresent();
    }

    @Test
    void secondHandle_seesTheSameData() {
        storeMemory("a", version(100));
        try (MemoryStore second = openStore(dir)) {
            assertThat(second.stage1Output("a")).isPresent();
            assertThat(second.tryClaimStage1Job("a", OTHER_WORKER, version(100), LEASE, 64, NOW).outcome())
                    .isEqualTo(ClaimOutcome.SKIPPED_UP_TO_DATE);
        }
    }

    // ---- the roles, each a contract of its own, run against this store ------------------------
    // Each role's tests run in a nested class that opens its stores through this class, so a
    // store's test extends MemoryStoreContract alone and passes every role. One line per override:
    // the nine classes differ only in the contract they run.

    /** {@link Stage1StoreContract}: claims, leases and completions of Phase 1. */
    @Nested
    class Stage1 extends Stage1StoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link Stage1FailureStoreContract}: failed extractions and model failures. */
    @Nested
    class Stage1Failures extends Stage1FailureStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link RetentionStoreContract}: usage counts and retention. */
    @Nested
    class Retention extends RetentionStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link Phase2StoreContract}: the consolidation lock and the selection. */
    @Nested
    class Phase2 extends Phase2StoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link Stage1PreviewStoreContract}: the claim preview. */
    @Nested
    class Stage1Preview extends Stage1PreviewStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link ProjectStoreContract}: each memory's project. */
    @Nested
    class Projects extends ProjectStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link ApprovalStoreContract}: memories and notes awaiting approval. */
    @Nested
    class Approvals extends ApprovalStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link SpawnGraphStoreContract}: the spawn graph. */
    @Nested
    class SpawnGraph extends SpawnGraphStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link ForgetStoreContract}: the forget ledger. */
    @Nested
    class Forgetting extends ForgetStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link FairSelectionStoreContract}: the fair Phase 2 selection. */
    @Nested
    class FairSelection extends FairSelectionStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link ThreadEndStoreContract}: conversations the application ended skip the idle wait. */
    @Nested
    class ThreadEnds extends ThreadEndStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link DeadJobStoreContract}: dead Phase 1 jobs, listed and put back. */
    @Nested
    class DeadJobs extends DeadJobStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    /** {@link ExtractionBudgetStoreContract}: the daily extraction token ledger. */
    @Nested
    class ExtractionBudget extends ExtractionBudgetStoreContract {
        @Override protected MemoryStore openStore(Path dir) { return openRoleStore(dir); }
        @Override protected void dropOwnershipToken(MemoryStore s, String k, String j) { dropRoleToken(s, k, j); }
    }

    private MemoryStore openRoleStore(Path dir) {
        return openStore(dir);
    }

    private void dropRoleToken(MemoryStore roleStore, String kind, String jobKey) {
        dropOwnershipToken(roleStore, kind, jobKey);
    }
}
