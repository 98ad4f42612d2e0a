package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Phase 2 state: the global lock, enqueue, input selection and exact-snapshot marking — Codex's
 * state-DB tests (write-sheet §10.5, numbers in the comments) that concern consolidation.
 *
 * <p>One role's contract: a store that serves this role extends it alone (its fixtures also write
 * thread rows); {@link MemoryStoreContract} runs it, with every other role, for a whole store.
 */
public abstract class Phase2StoreContract extends MemoryStoreContractSupport {

    /** Past the six-hour success cooldown of a consolidation that finished at {@link #NOW}. */
    protected static final Instant AFTER_COOLDOWN = NOW.plus(Duration.ofHours(6)).plusSeconds(1);

    @Test // §10.5 #11
    void delete_thread_removes_stage1_output_and_enqueues_phase2_when_selected() {
        storeMemory("a", version(100));
        consolidate(NOW, "a");
        Instant deletedAt = NOW.plus(Duration.ofMinutes(1));

        assertThat(store.deleteThread("a", deletedAt)).isTrue();

        assertThat(store.stage1Output("a")).isEmpty();
        assertThat(store.thread("a")).isEmpty();
        assertThat(jobCount(PHASE2, "pending")).isEqualTo(1);
        assertThat(jobCount(STAGE1, "done")).isZero();
        assertThat(store.listStage1OutputsForGlobal(10)).isEmpty();
        JobClaim phase2 = store.tryClaimPhase2Job(WORKER, LEASE, AFTER_COOLDOWN);
        assertThat(phase2.isClaimed()).isTrue();
        assertThat(phase2.inputWatermark()).isGreaterThanOrEqualTo(deletedAt.getEpochSecond());
    }

    @Test // §10.5 #15
    void phase2_global_lock_respects_success_cooldown() {
        consolidate(NOW);

        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, NOW.plus(Duration.ofHours(1))).outcome())
                .isEqualTo(ClaimOutcome.SKIPPED_COOLDOWN);
        store.enqueuePhase2(NOW.getEpochSecond() + 60);
        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, NOW.plus(Duration.ofHours(5))).outcome())
                .isEqualTo(ClaimOutcome.SKIPPED_COOLDOWN);
        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, AFTER_COOLDOWN).outcome()).isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test // Mnemo: a forget, or "consolidate now", does not wait for the cooldown or a backoff
    void phase2_claim_now_passes_the_cooldown_and_a_backoff_but_never_a_live_lease() {
        consolidate(NOW);
        Instant inCooldown = NOW.plus(Duration.ofHours(1));
        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, inCooldown).outcome()).isEqualTo(ClaimOutcome.SKIPPED_COOLDOWN);

        JobClaim now = store.tryClaimPhase2JobNow(WORKER, LEASE, inCooldown);
        assertThat(now.isClaimed()).isTrue();
        assertThat(store.tryClaimPhase2JobNow(OTHER_WORKER, LEASE, inCooldown).outcome())
                .isEqualTo(ClaimOutcome.SKIPPED_RUNNING);

        assertThat(store.markPhase2Failed(now.token(), "failed_agent", Duration.ofHours(1), inCooldown)).isTrue();
        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, inCooldown).outcome())
                .isEqualTo(ClaimOutcome.SKIPPED_RETRY_UNAVAILABLE);
        assertThat(store.tryClaimPhase2JobNow(OTHER_WORKER, LEASE, inCooldown).isClaimed()).isTrue();
    }

    @Test // §10.5 #16
    void phase2_global_lock_can_be_claimed_after_retry_budget_is_exhausted() {
        for (int attempt = 1; attempt <= 3; attempt++) {
            JobClaim claim = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
            assertThat(claim.isClaimed()).as("attempt %s", attempt).isTrue();
            assertThat(store.markPhase2Failed(claim.token(), "failed_agent", Duration.ZERO, NOW)).isTrue();
        }

        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, NOW).outcome()).isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test // §10.5 #17
    void list_stage1_outputs_for_global_returns_latest_outputs() {
        store.upsertThread(threadRow("a", NOW.minus(Duration.ofDays(1))).cwd(Path.of("/work/a")).gitBranch("main")
                .build());
        String token = claim("a", version(100));
        store.markStage1Succeeded("a", token, version(100),
                new Stage1Result("raw a", "summary a", Optional.of("fix-build")), NOW);
        storeMemory("b", version(101));

        List<Stage1Output> outputs = store.listStage1OutputsForGlobal(10);

        assertThat(ids(outputs)).containsExactly("b", "a");
        Stage1Output a = outputs.get(1);
        assertThat(a.cwd()).contains(Path.of("/work/a"));
        assertThat(a.gitBranch()).contains("main");
        assertThat(a.result().rolloutSlug()).contains("fix-build");
        assertThat(a.rolloutPath()).isEqualTo(Path.of("/rollouts/rollout-a.jsonl"));
        assertThat(outputs.get(0).result().rolloutSlug()).isEmpty();
        assertThat(outputs.get(0).cwd()).isEmpty();
        assertThat(ids(store.listStage1OutputsForGlobal(1))).containsExactly("b");
    }

    @Test // §10.5 #18
    void list_stage1_outputs_for_global_skips_empty_payloads() {
        storeWithPayload("empty", version(103), "", "");
        storeWithPayload("blank", version(102), "  ", "   ");
        storeWithPayload("summary-only", version(101), "", "a summary");
        storeMemory("full", version(100));

        assertThat(ids(store.listStage1OutputsForGlobal(10))).containsExactly("summary-only", "full");
        assertThat(ids(store.phase2InputSelection(10, 30, NOW))).containsExactly("full", "summary-only");
    }

    private void storeWithPayload(String threadId, Instant version, String raw, String summary) {
        addThread(threadId);
        String token = claim(threadId, version);
        store.markStage1Succeeded(threadId, token, version, new Stage1Result(raw, summary, Optional.empty()), NOW);
    }

    @Test // §10.5 #19
    void list_stage1_outputs_for_global_skips_polluted_threads() {
        storeMemory("polluted", version(102));
        storeMemory("disabled", version(101));
        storeMemory("enabled", version(100));
        store.markThreadPolluted("polluted", NOW);
        store.setThreadMemoryMode("disabled", MemoryMode.DISABLED, NOW);

        assertThat(ids(store.listStage1OutputsForGlobal(10))).containsExactly("enabled");
    }

    @Test // §10.5 #20
    void get_phase2_input_selection_returns_current_selected_rows() {
        storeMemory("a", version(100));
        storeMemory("b", version(101));
        storeMemory("c", version(102));
        consolidate(NOW, "a", "c");

        List<Stage1Output> selection = store.phase2InputSelection(2, 30, NOW);

        assertThat(ids(selection)).containsExactly("b", "c");
        assertThat(selection.get(0).rolloutPath()).isEqualTo(Path.of("/rollouts/rollout-b.jsonl"));
        assertThat(selection.get(0).selectedSnapshot()).isEmpty();
        assertThat(selection.get(1).selectedSnapshot()).contains(version(102));
        assertThat(store.phase2InputSelection(0, 30, NOW)).isEmpty();
    }

    @Test // §10.5 #21
    void get_phase2_input_selection_excludes_polluted_previous_selection() {
        storeMemory("a", version(100));
        storeMemory("b", version(101));
        storeMemory("c", version(102));
        consolidate(NOW, "a", "b", "c");

        store.markThreadPolluted("a", NOW);
        store.setThreadMemoryMode("b", MemoryMode.DISABLED, NOW);

        assertThat(ids(store.phase2InputSelection(10, 30, NOW))).containsExactly("c");
    }

    @Test // §10.5 #22
    void mark_thread_memory_mode_polluted_enqueues_phase2_for_selected_threads() {
        storeMemory("a", version(100));
        storeMemory("b", version(100));
        consolidate(NOW, "a");

        assertThat(store.markThreadPolluted("b", NOW)).isTrue();
        assertThat(jobCount(PHASE2, "pending")).as("b was not selected").isZero();
        assertThat(store.markThreadPolluted("a", NOW.plusSeconds(60))).isTrue();
        assertThat(jobCount(PHASE2, "pending")).isEqualTo(1);

        JobClaim claim = store.tryClaimPhase2Job(WORKER, LEASE, AFTER_COOLDOWN);
        assertThat(claim.isClaimed()).isTrue();
        assertThat(claim.inputWatermark()).isGreaterThanOrEqualTo(NOW.getEpochSecond() + 60);
    }

    /**
     * Codex keeps a polluted thread's row, so polluting it again re-enqueues Phase 2. Mnemo deletes
     * the row on the first call: the second call changes nothing and reports false, and the
     * consolidation the first call queued is still pending.
     */
    @Test // §10.5 #23
    void mark_thread_memory_mode_polluted_enqueues_phase2_when_already_polluted() {
        storeMemory("a", version(100));
        consolidate(NOW, "a");
        assertThat(store.markThreadPolluted("a", NOW)).isTrue();

        assertThat(store.markThreadPolluted("a", NOW.plusSeconds(5))).isFalse();

        assertThat(mode("a")).isEqualTo(MemoryMode.POLLUTED);
        assertThat(jobCount(PHASE2, "pending")).isEqualTo(1);
        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, AFTER_COOLDOWN).isClaimed()).isTrue();
    }

    @Test // §10.5 #24
    void get_phase2_input_selection_returns_regenerated_selected_rows() {
        storeMemory("a", version(100));
        consolidate(NOW, "a");
        storeMemory("a", version(101));

        Stage1Output a = store.phase2InputSelection(10, 30, NOW).get(0);

        assertThat(a.sourceUpdatedAt()).isEqualTo(version(101));
        assertThat(a.selectedSnapshot()).contains(version(100));
    }

    @Test // §10.5 #25
    void get_phase2_input_selection_uses_current_ranking_after_refreshes() {
        storeMemory("a", version(100));
        storeMemory("b", version(104));
        storeMemory("c", version(102));
        storeMemory("d", version(103));
        assertThat(ids(store.phase2InputSelection(2, 30, NOW))).containsExactly("b", "d");

        storeMemory("c", version(105));
        storeMemory("d", version(106));

        assertThat(ids(store.phase2InputSelection(2, 30, NOW))).containsExactly("c", "d");
    }

    @Test // §10.5 #26
    void mark_global_phase2_job_succeeded_updates_selected_snapshot_timestamp() {
        storeMemory("a", version(100));
        consolidate(NOW, "a");
        assertThat(store.stage1Output("a").orElseThrow().selectedSnapshot()).contains(version(100));

        storeMemory("a", version(101));
        consolidate(AFTER_COOLDOWN, "a");

        assertThat(store.stage1Output("a").orElseThrow().selectedSnapshot()).contains(version(101));
    }

    @Test // §10.5 #27
    void mark_global_phase2_job_succeeded_only_marks_exact_selected_snapshots() {
        storeMemory("a", version(100));
        JobClaim claim = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
        List<SelectedInput> selected =
                store.phase2InputSelection(10, 30, NOW).stream().map(Stage1Output::snapshot).toList();
        storeMemory("a", version(101)); // refreshed while the consolidation runs

        assertThat(store.markPhase2Succeeded(claim.token(), claim.inputWatermark(), selected, NOW)).isTrue();

        assertThat(store.stage1Output("a").orElseThrow().selectedSnapshot()).isEmpty();
        assertThat(store.phase2InputSelection(10, 30, NOW)).singleElement()
                .satisfies(a -> assertThat(a.sourceUpdatedAt()).isEqualTo(version(101)));
    }

    @Test // §10.5 #29
    void get_phase2_input_selection_prioritizes_usage_count_then_recent_usage() {
        Instant source = Instant.ofEpochSecond(NOW.minus(Duration.ofDays(20)).getEpochSecond());
        storeMemory("a", source);
        storeMemory("b", source);
        storeMemory("c", source);
        store.recordUsage(List.of("a", "a", "a", "a", "a"), NOW.minus(Duration.ofDays(10)));
        store.recordUsage(List.of("b", "b", "b", "b", "b"), NOW.minus(Duration.ofDays(1)));
        store.recordUsage(List.of("c"), NOW.minus(Duration.ofHours(1)));

        assertThat(ids(store.phase2InputSelection(1, 30, NOW))).containsExactly("b");
        assertThat(ids(store.phase2InputSelection(2, 30, NOW))).containsExactly("a", "b");
    }

    @Test // §10.5 #30
    void get_phase2_input_selection_excludes_stale_used_memories_but_keeps_fresh_never_used() {
        storeMemory("a", Instant.ofEpochSecond(NOW.minus(Duration.ofDays(40)).getEpochSecond()));
        store.recordUsage(List.of("a"), NOW.minus(Duration.ofDays(31)));
        storeMemory("b", Instant.ofEpochSecond(NOW.minus(Duration.ofDays(2)).getEpochSecond()));
        storeMemory("c", Instant.ofEpochSecond(NOW.minus(Duration.ofDays(50)).getEpochSecond()));
        store.recordUsage(List.of("c"), NOW.minus(Duration.ofDays(1)));

        assertThat(ids(store.phase2InputSelection(10, 30, NOW))).containsExactly("b", "c");
    }

    @Test // §10.5 #31
    void get_phase2_input_selection_prefers_recent_thread_updates_over_recent_generation() {
        storeMemory("older-rollout", version(200), NOW);
        storeMemory("newer-rollout", version(300), NOW.minus(Duration.ofHours(5)));

        assertThat(ids(store.phase2InputSelection(1, 30, NOW))).containsExactly("newer-rollout");
    }

    @Test // §10.5 #35
    void phase2_global_lock_allows_only_one_fresh_runner() throws Exception {
        try (MemoryStore second = openStore(dir)) {
            List<JobClaim> claims = concurrently(4, i -> (i % 2 == 0 ? store : second)
                    .tryClaimPhase2Job("worker-" + i, LEASE, NOW));
            assertThat(claims).filteredOn(JobClaim::isClaimed).hasSize(1);
            assertThat(claims).filteredOn(claim -> !claim.isClaimed())
                    .allSatisfy(claim -> assertThat(claim.outcome()).isEqualTo(ClaimOutcome.SKIPPED_RUNNING));
        }
    }

    @Test // §10.5 #36
    void phase2_global_lock_creates_missing_job_row() {
        JobClaim first = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
        assertThat(first.isClaimed()).isTrue();
        assertThat(first.inputWatermark()).isZero();
        assertThat(store.tryClaimPhase2Job(OTHER_WORKER, LEASE, NOW).outcome()).isEqualTo(ClaimOutcome.SKIPPED_RUNNING);

        assertThat(store.markPhase2Succeeded(first.token(), 0, List.of(), NOW)).isTrue();

        assertThat(store.tryClaimPhase2Job(OTHER_WORKER, LEASE, NOW).outcome())
                .isEqualTo(ClaimOutcome.SKIPPED_COOLDOWN);
    }

    @Test // §10.5 #37
    void phase2_global_lock_stale_lease_allows_takeover() {
        store.enqueuePhase2(300);
        JobClaim a = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
        assertThat(a.inputWatermark()).isEqualTo(300);

        JobClaim b = store.tryClaimPhase2Job(OTHER_WORKER, LEASE, NOW.plus(LEASE));

        assertThat(b.isClaimed()).isTrue();
        assertThat(b.inputWatermark()).isEqualTo(300);
        assertThat(store.markPhase2Succeeded(a.token(), 300, List.of(), NOW.plus(LEASE))).isFalse();
        assertThat(store.markPhase2Succeeded(b.token(), 300, List.of(), NOW.plus(LEASE))).isTrue();
    }

    @Test // §10.5 #38
    void enqueue_global_consolidation_keeps_phase2_input_watermark_monotonic() {
        store.enqueuePhase2(500);
        JobClaim first = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
        assertThat(first.inputWatermark()).isEqualTo(500);
        assertThat(store.markPhase2Succeeded(first.token(), 500, List.of(), NOW)).isTrue();

        store.enqueuePhase2(400);

        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, AFTER_COOLDOWN).inputWatermark()).isGreaterThan(500);
    }

    @Test // §10.5 #39
    void phase2_failure_fallback_updates_unowned_running_job() {
        JobClaim claim = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
        dropOwnershipToken(store, PHASE2, GLOBAL);

        assertThat(store.markPhase2Failed(claim.token(), "failed_agent", RETRY_DELAY, NOW)).isFalse();
        assertThat(store.markPhase2FailedIfUnowned(claim.token(), "failed_agent", RETRY_DELAY, NOW)).isTrue();

        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, NOW.plusSeconds(60)).outcome())
                .isEqualTo(ClaimOutcome.SKIPPED_RETRY_UNAVAILABLE);
        assertThat(store.tryClaimPhase2Job(WORKER, LEASE, NOW.plus(RETRY_DELAY)).isClaimed()).isTrue();
    }

    @Test
    void phase2_heartbeat_extends_only_an_owned_lease() {
        JobClaim claim = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
        Instant later = NOW.plus(Duration.ofMinutes(50));

        assertThat(store.heartbeatPhase2Job(claim.token(), LEASE, later)).isTrue();
        assertThat(store.heartbeatPhase2Job("not-the-token", LEASE, later)).isFalse();

        assertThat(store.tryClaimPhase2Job(OTHER_WORKER, LEASE, NOW.plus(LEASE)).outcome())
                .isEqualTo(ClaimOutcome.SKIPPED_RUNNING);
        assertThat(store.tryClaimPhase2Job(OTHER_WORKER, LEASE, later.plus(LEASE)).isClaimed()).isTrue();
        assertThat(store.heartbeatPhase2Job(claim.token(), LEASE, later.plus(LEASE))).isFalse();
    }

    @Test
    void phase2_selection_has_no_duplicates_and_is_sorted_by_thread_id() {
        for (int i = 0; i < 30; i++) {
            storeMemory(String.format("t%02d", 29 - i), version(i));
        }
        store.recordUsage(List.of("t03", "t17", "t17"), NOW);

        List<String> ids = ids(store.phase2InputSelection(20, 30, NOW));

        assertThat(ids).hasSize(20).doesNotHaveDuplicates().isSorted().contains("t03", "t17");
    }
}
