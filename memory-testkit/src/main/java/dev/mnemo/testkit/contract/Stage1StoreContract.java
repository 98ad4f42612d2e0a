package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Stage1Claim;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Phase 1 state: claims, leases, retries, completions, usage and retention — Codex's state-DB
 * tests (write-sheet §10.5, numbers in the comments) that concern stage-1 rows and jobs.
 *
 * <p>One role's contract: a store that serves this role extends it alone (its fixtures also write
 * thread rows); {@link MemoryStoreContract} runs it, with every other role, for a whole store.
 */
public abstract class Stage1StoreContract extends MemoryStoreContractSupport {

    @Test // §10.5 #1
    void stage1_claim_skips_when_up_to_date() {
        addThread("a");
        String token = claim("a", version(100));
        assertThat(store.markStage1Succeeded("a", token, version(100), result("a"), NOW)).isTrue();

        assertThat(tryClaim("a", version(100), NOW).outcome()).isEqualTo(ClaimOutcome.SKIPPED_UP_TO_DATE);
        assertThat(tryClaim("a", version(101), NOW).outcome()).isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test // §10.5 #2
    void stage1_running_stale_can_be_stolen_but_fresh_running_is_skipped() {
        addThread("a");
        String first = claim("a", version(100));

        JobClaim whileFresh = store.tryClaimStage1Job("a", OTHER_WORKER, version(100), LEASE, 64,
                NOW.plus(Duration.ofMinutes(59)));
        assertThat(whileFresh.outcome()).isEqualTo(ClaimOutcome.SKIPPED_RUNNING);

        Instant leaseOver = NOW.plus(LEASE);
        JobClaim stolen = store.tryClaimStage1Job("a", OTHER_WORKER, version(100), LEASE, 64, leaseOver);
        assertThat(stolen.outcome()).isEqualTo(ClaimOutcome.CLAIMED);
        assertThat(stolen.token()).isNotEqualTo(first);
        assertThat(store.status(leaseOver).runningLeases()).singleElement()
                .satisfies(lease -> assertThat(lease.workerId()).isEqualTo(OTHER_WORKER));
        assertThat(store.markStage1Succeeded("a", first, version(100), result("a"), leaseOver)).isFalse();
        assertThat(store.markStage1Succeeded("a", stolen.token(), version(100), result("a"), leaseOver)).isTrue();
    }

    @Test // §10.5 #3
    void stage1_concurrent_claim_for_same_thread_is_conflict_safe() throws Exception {
        addThread("a");
        try (MemoryStore second = openStore(dir)) {
            List<JobClaim> claims = concurrently(4, i -> (i % 2 == 0 ? store : second)
                    .tryClaimStage1Job("a", "worker-" + i, version(100), LEASE, 64, NOW));
            assertThat(claims).filteredOn(JobClaim::isClaimed).hasSize(1);
            assertThat(claims).filteredOn(claim -> !claim.isClaimed())
                    .allSatisfy(claim -> assertThat(claim.outcome()).isEqualTo(ClaimOutcome.SKIPPED_RUNNING));
        }
    }

    @Test // §10.5 #4
    void stage1_concurrent_claims_respect_running_cap() throws Exception {
        addThread("a");
        addThread("b");
        List<JobClaim> claims = concurrently(2, i -> store.tryClaimStage1Job(i == 0 ? "a" : "b", "worker-" + i,
                version(100), LEASE, 1, NOW));
        assertThat(claims).filteredOn(JobClaim::isClaimed).hasSize(1);
        assertThat(claims).filteredOn(claim -> !claim.isClaimed()).singleElement()
                .satisfies(claim -> assertThat(claim.outcome()).isEqualTo(ClaimOutcome.SKIPPED_RUNNING));
    }

    @Test // §10.5 #5
    void claim_stage1_jobs_filters_by_age_idle_and_current_thread() {
        addThread("current-thread", NOW.minus(Duration.ofHours(12)).minusSeconds(30));
        addThread("one-hour", NOW.minus(Duration.ofHours(1)));
        addThread("just-inside-idle", NOW.minus(Duration.ofHours(12)).plus(Duration.ofMinutes(1)));
        addThread("just-past-idle", NOW.minus(Duration.ofHours(12)).minus(Duration.ofMinutes(1)));
        addThread("too-old", NOW.minus(Duration.ofDays(31)));

        List<Stage1Claim> claims = store.claimStage1Jobs(claimParams(1, 64), NOW);

        assertThat(claims).extracting(claim -> claim.thread().id()).containsExactly("just-past-idle");
        Stage1Claim claim = claims.get(0);
        assertThat(claim.sourceUpdatedAt())
                .isEqualTo(Instant.ofEpochSecond(claim.thread().updatedAt().getEpochSecond()));
    }

    @Test // §10.5 #6
    void claim_stage1_jobs_bounds_state_scan_before_memory_probes() {
        Instant newer = NOW.minus(Duration.ofHours(13));
        addThread("up-to-date", newer);
        storeMemory("up-to-date", Instant.ofEpochSecond(newer.getEpochSecond()));
        addThread("stale", NOW.minus(Duration.ofHours(14)));

        assertThat(store.claimStage1Jobs(claimParams(1, 64), NOW)).isEmpty();
        assertThat(store.claimStage1Jobs(claimParams(2, 64), NOW)).extracting(claim -> claim.thread().id())
                .containsExactly("stale");
    }

    @Test // §10.5 #7
    void claim_stage1_jobs_skips_threads_with_disabled_memory_mode() {
        store.upsertThread(threadRow("disabled", NOW.minus(Duration.ofDays(1))).memoryMode(MemoryMode.DISABLED)
                .build());
        addThread("enabled", NOW.minus(Duration.ofDays(2)));

        assertThat(store.claimStage1Jobs(claimParams(10, 64), NOW)).extracting(claim -> claim.thread().id())
                .containsExactly("enabled");
    }

    @Test // §10.5 #8
    void clear_memory_data_clears_rows_and_preserves_thread_memory_modes() {
        storeMemory("a", version(100));
        store.upsertThread(threadRow("b", NOW.minus(Duration.ofDays(1))).memoryMode(MemoryMode.DISABLED).build());
        storeMemory("b", version(100));
        addThread("c-running");
        claim("c-running", version(100));

        store.clearMemoryData();

        MemoryStatus status = store.status(NOW);
        assertThat(status.stage1Outputs()).isZero();
        assertThat(status.jobCounts().values()).allSatisfy(byStatus -> assertThat(byStatus.values())
                .allSatisfy(count -> assertThat(count).isZero()));
        assertThat(mode("a")).isEqualTo(MemoryMode.ENABLED);
        assertThat(mode("b")).isEqualTo(MemoryMode.DISABLED);
    }

    @Test // §10.5 #9
    void claim_stage1_jobs_enforces_global_running_cap() {
        for (int i = 0; i < 80; i++) {
            addThread(String.format("candidate-%02d", i), NOW.minus(Duration.ofDays(1)).minusSeconds(i));
        }
        for (int i = 0; i < 10; i++) {
            String id = String.format("running-%02d", i);
            addThread(id, NOW.minus(Duration.ofDays(2)));
            assertThat(store.tryClaimStage1Job(id, OTHER_WORKER, version(100), LEASE, 64, NOW).isClaimed()).isTrue();
        }

        assertThat(store.claimStage1Jobs(claimParams(5_000, 64), NOW)).hasSize(54);
        assertThat(jobCount(STAGE1, "running")).isEqualTo(64);
        assertThat(store.claimStage1Jobs(claimParams(5_000, 64), NOW)).isEmpty();
    }

    @Test // §10.5 #10
    void claim_stage1_jobs_processes_two_full_batches_across_startup_passes() {
        for (int i = 0; i < 200; i++) {
            addThread(String.format("thread-%03d", i), NOW.minus(Duration.ofDays(1)).minusSeconds(i));
        }
        List<Stage1Claim> first = store.claimStage1Jobs(claimParams(5_000, 64), NOW);
        assertThat(first).hasSize(64);
        for (Stage1Claim claim : first) {
            assertThat(store.markStage1Succeeded(claim.thread().id(), claim.ownershipToken(), claim.sourceUpdatedAt(),
                    result(claim.thread().id()), NOW)).isTrue();
        }

        List<Stage1Claim> second = store.claimStage1Jobs(claimParams(5_000, 64), NOW);

        assertThat(second).hasSize(64);
        Set<String> ids = new HashSet<>();
        first.forEach(claim -> ids.add(claim.thread().id()));
        second.forEach(claim -> assertThat(ids.add(claim.thread().id())).as("claimed twice").isTrue());
    }

    @Test // §10.5 #12
    void mark_stage1_job_succeeded_no_output_skips_phase2_when_output_was_already_absent() {
        addThread("a");
        String token = claim("a", version(100));

        assertThat(store.markStage1SucceededNoOutput("a", token, NOW)).isTrue();

        assertThat(store.stage1Output("a")).isEmpty();
        assertThat(tryClaim("a", version(100), NOW).outcome()).isEqualTo(ClaimOutcome.SKIPPED_UP_TO_DATE);
        assertThat(store.status(NOW).jobCounts().getOrDefault(PHASE2, Map.of()).values())
                .allSatisfy(count -> assertThat(count).isZero());
    }

    @Test // §10.5 #13
    void mark_stage1_job_succeeded_no_output_enqueues_phase2_when_deleting_output() {
        storeMemory("a", version(100));
        String token = claim("a", version(101));

        assertThat(store.markStage1SucceededNoOutput("a", token, NOW)).isTrue();

        assertThat(store.stage1Output("a")).isEmpty();
        JobClaim phase2 = store.tryClaimPhase2Job(WORKER, LEASE, NOW);
        assertThat(phase2.isClaimed()).isTrue();
        assertThat(phase2.inputWatermark()).isEqualTo(version(101).getEpochSecond());
    }

    @Test // §10.5 #34
    void mark_stage1_job_succeeded_enqueues_global_consolidation() {
        storeMemory("a", version(101));

        JobClaim phase2 = store.tryClaimPhase2Job(WORKER, LEASE, NOW);

        assertThat(phase2.isClaimed()).isTrue();
        assertThat(phase2.inputWatermark()).isEqualTo(version(101).getEpochSecond());
    }

    @Test
    void claim_stage1_jobs_claims_newest_first_and_stops_at_max_claimed() {
        IntStream.range(0, 5).forEach(i -> addThread("t" + i, NOW.minus(Duration.ofDays(1)).minusSeconds(i * 60L)));

        assertThat(store.claimStage1Jobs(claimParams(5_000, 2), NOW)).extracting(claim -> claim.thread().id())
                .containsExactly("t0", "t1");
        assertThat(store.claimStage1Jobs(claimParams(0, 2), NOW)).isEmpty();
    }

    @Test // Mnemo: a store may claim in batches; the result must be as if claimed one by one
    void claim_stage1_jobs_claims_past_unclaimable_candidates_in_scan_order() {
        List<String> claimable = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String id = String.format("thread-%03d", i);
            Instant updated = NOW.minus(Duration.ofDays(1)).minusSeconds(i);
            addThread(id, updated);
            if (i % 7 == 3) {
                failThreeTimes(id, updated); // no retries left for this version: scanned, not claimable
            } else {
                claimable.add(id);
            }
        }

        List<Stage1Claim> first = store.claimStage1Jobs(claimParams(5_000, 70), NOW);

        assertThat(first).extracting(claim -> claim.thread().id()).containsExactlyElementsOf(claimable.subList(0, 70));
        assertThat(first).extracting(Stage1Claim::ownershipToken).doesNotHaveDuplicates();
        assertThat(jobCount(STAGE1, "running")).isEqualTo(70);
        for (Stage1Claim claim : first) {
            assertThat(store.markStage1Succeeded(claim.thread().id(), claim.ownershipToken(), claim.sourceUpdatedAt(),
                    result(claim.thread().id()), NOW)).as("%s owns its claim", claim.thread().id()).isTrue();
        }
        assertThat(store.claimStage1Jobs(claimParams(5_000, 70), NOW)).extracting(claim -> claim.thread().id())
                .containsExactlyElementsOf(claimable.subList(70, claimable.size()));
    }

    @Test // Mnemo: the cap counts live leases only, also where a store claims in batches
    void claim_stage1_jobs_counts_live_leases_toward_the_cap_and_takes_over_expired_ones() {
        Instant idle = NOW.minus(Duration.ofDays(1));
        for (int i = 0; i < 5; i++) {
            Instant updated = idle.minusSeconds(i);
            addThread("expired-" + i, updated);
            assertThat(store.tryClaimStage1Job("expired-" + i, OTHER_WORKER, updated, LEASE, 64,
                    NOW.minus(LEASE).minusSeconds(1)).isClaimed()).isTrue();
            addThread("live-" + i, updated.minus(Duration.ofDays(1)));
            assertThat(store.tryClaimStage1Job("live-" + i, OTHER_WORKER, updated, LEASE, 64, NOW).isClaimed()).isTrue();
        }
        List<String> fresh = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            fresh.add(String.format("fresh-%02d", i));
            addThread(fresh.get(i), idle.minusSeconds(10 + i));
        }

        List<String> claimed = store.claimStage1Jobs(claimParams(5_000, 20), NOW).stream()
                .map(claim -> claim.thread().id()).toList();

        List<String> expected = new ArrayList<>(List.of("expired-0", "expired-1", "expired-2", "expired-3", "expired-4"));
        expected.addAll(fresh.subList(0, 10));
        assertThat(claimed).containsExactlyElementsOf(expected);
        assertThat(jobCount(STAGE1, "running")).isEqualTo(20);
    }

    @Test
    void claim_stage1_jobs_skips_archived_unpreviewed_and_disallowed_sources() {
        Instant idle = NOW.minus(Duration.ofDays(1));
        store.upsertThread(threadRow("archived", idle).archived(true).build());
        store.upsertThread(threadRow("no-preview", idle).preview("").build());
        store.upsertThread(threadRow("exec", idle).source("exec").build());
        addThread("eligible", idle.minusSeconds(1));

        assertThat(store.claimStage1Jobs(claimParams(10, 10), NOW)).extracting(claim -> claim.thread().id())
                .containsExactly("eligible");
    }
}
