package dev.mnemo.postgres;

import dev.mnemo.DeadJob;
import dev.mnemo.ModelFailure;
import dev.mnemo.Phase1Preview;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import dev.mnemo.spi.Stage1Store;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 1's state of one tenant ({@link Stage1Store}), a role of {@link PostgresMemoryStore}: the
 * claims, completions and failures of extraction jobs ({@link JobRows}), the memories they store,
 * the usage the read path records and retention ({@link OutputRows}). Claims serialise per tenant on
 * the Phase 1 claim lock ({@link JobRows#lockClaims}); a success stores the memory and queues
 * Phase 2 in the completion's own transaction. Logs under {@link PostgresMemoryStore}'s name, as
 * before the store was split by role.
 */
final class PostgresStage1Store implements Stage1Store {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);

    private final StateTransactions state;

    PostgresStage1Store(StateTransactions state) {
        this.state = state;
    }

    /**
     * {@inheritDoc}
     *
     * <p>One transaction under the tenant's Phase 1 claim lock: the candidate scan is read page by
     * page and each out-of-date candidate is claimed with the same guarded upsert as
     * {@link #tryClaimStage1Job}, until enough are claimed.
     */
    @Override
    public List<Stage1Claim> claimStage1Jobs(Stage1ClaimParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        if (params.claimsNothing()) {
            return List.of();
        }
        List<Stage1Claim> claimed = state.write("claim Phase 1 jobs", tx -> {
            JobRows.lockClaims(tx, JobRows.STAGE1);
            List<Stage1Claim> out = new ArrayList<>();
            try (ThreadRows.Candidates candidates = ThreadRows.claimCandidates(tx, params, now)) {
                Optional<ThreadRows.Candidate> next;
                while (out.size() < params.maxClaimed() && (next = candidates.next()).isPresent()) {
                    if (next.get().upToDate()) {
                        continue;
                    }
                    ThreadInfo thread = next.get().thread();
                    Instant source = Instant.ofEpochSecond(thread.updatedAt().getEpochSecond());
                    JobClaim claim = JobRows.tryClaimStage1(tx, thread.id(), params.workerId(), source,
                            params.lease(), params.maxClaimed(), now);
                    if (claim.isClaimed()) {
                        out.add(new Stage1Claim(thread, claim.token(), source));
                    }
                }
            }
            return out;
        });
        LOG.debug("Phase 1 claim by {} for tenant {}: {} claimed", params.workerId(), state.tenant(), claimed.size());
        return List.copyOf(claimed);
    }

    @Override
    public List<Phase1Preview.Candidate> previewStage1Claims(Stage1ClaimParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        return List.copyOf(state.read("preview Phase 1 claims", tx -> Stage1ClaimPreview.preview(tx, params, now)));
    }

    @Override
    public JobClaim tryClaimStage1Job(String threadId, String workerId, Instant sourceUpdatedAt, Duration lease,
            int maxRunning, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        return state.write("claim Phase 1 job of thread " + threadId, tx -> {
            JobRows.lockClaims(tx, JobRows.STAGE1);
            return JobRows.tryClaimStage1(tx, threadId, workerId, sourceUpdatedAt, lease, maxRunning, now);
        });
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now) {
        return markStage1Succeeded(threadId, ownershipToken, sourceUpdatedAt, result, now, false);
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now, boolean awaitingApproval) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(now, "now");
        return state.write("complete Phase 1 job of thread " + threadId, tx -> {
            if (!JobRows.markStage1Done(tx, threadId, ownershipToken, now)) {
                return false;
            }
            if (OutputRows.upsert(tx, threadId, sourceUpdatedAt, result, awaitingApproval, now) > 0
                    && !awaitingApproval) {
                JobRows.enqueuePhase2(tx, sourceUpdatedAt.getEpochSecond());
            }
            return true;
        });
    }

    @Override
    public boolean markStage1SucceededNoOutput(String threadId, String ownershipToken, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(now, "now");
        return state.write("complete Phase 1 job of thread " + threadId + " without output", tx -> {
            if (!JobRows.markStage1Done(tx, threadId, ownershipToken, now)) {
                return false;
            }
            long watermark = JobRows.stage1InputWatermark(tx, threadId).orElse(now.getEpochSecond());
            if (OutputRows.delete(tx, threadId).isPresent()) {
                JobRows.enqueuePhase2(tx, watermark);
            }
            return true;
        });
    }

    @Override
    public boolean markStage1Failed(String threadId, String ownershipToken, String reason, Duration retryDelay,
            Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(now, "now");
        return state.write("fail Phase 1 job of thread " + threadId,
                tx -> JobRows.markStage1Failed(tx, threadId, ownershipToken, reason, retryDelay, now));
    }

    @Override
    public boolean releaseStage1AfterModelFailure(String threadId, String ownershipToken, ModelFailure failure,
            Duration retryDelay, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(now, "now");
        return state.write("release Phase 1 job of thread " + threadId + " after a model failure",
                tx -> JobRows.releaseStage1AfterModelFailure(tx, threadId, ownershipToken, failure, retryDelay, now));
    }

    @Override
    public Optional<Stage1Output> stage1Output(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return state.read("read memory of thread " + threadId, tx -> OutputRows.find(tx, threadId));
    }

    // ---- read-path feedback and retention -------------------------------------------------------

    @Override
    public int recordUsage(List<String> threadIds, Instant now) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        Objects.requireNonNull(now, "now");
        return ids.isEmpty() ? 0 : state.write("record memory usage", tx -> OutputRows.recordUsage(tx, ids, now));
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now) {
        Objects.requireNonNull(now, "now");
        int pruned = state.write("prune memories", tx -> OutputRows.prune(tx, maxUnusedDays, limit, now));
        if (pruned > 0) {
            LOG.info("pruned {} stage-1 memories of tenant {} unused for {} days", pruned, state.tenant(),
                    maxUnusedDays);
        }
        return pruned;
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now, Set<String> keep) {
        Objects.requireNonNull(now, "now");
        Set<String> spared = Set.copyOf(Objects.requireNonNull(keep, "keep"));
        int pruned = state.write("prune memories", tx -> OutputRows.prune(tx, maxUnusedDays, limit, now, spared));
        if (pruned > 0) {
            LOG.info("pruned {} stage-1 memories of tenant {} unused for {} days"
                    + " (sparing {} a kept consolidation used)", pruned, state.tenant(), maxUnusedDays, spared.size());
        }
        return pruned;
    }

    // ---- dead jobs ------------------------------------------------------------------------------

    @Override
    public List<DeadJob> deadStage1Jobs(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        }
        return List.copyOf(state.read("list dead Phase 1 jobs", tx -> DeadJobRows.list(tx, limit)));
    }

    @Override
    public boolean retryStage1Job(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean retried = state.write("retry Phase 1 job of thread " + threadId,
                tx -> DeadJobRows.retry(tx, threadId, now));
        if (retried) {
            LOG.info("Phase 1 job of thread {} of tenant {} put back: claimable now with its retries restored",
                    threadId, state.tenant());
        }
        return retried;
    }

    @Override
    public int retryDeadStage1Jobs(Instant now) {
        Objects.requireNonNull(now, "now");
        int retried = state.write("retry dead Phase 1 jobs", DeadJobRows::retryDead);
        if (retried > 0) {
            LOG.info("{} dead Phase 1 jobs of tenant {} put back: claimable now with their retries restored", retried,
                    state.tenant());
        }
        return retried;
    }

    @Override
    public Optional<DeadJob> deadStage1Job(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return state.read("read dead Phase 1 job of thread " + threadId, tx -> DeadJobRows.find(tx, threadId));
    }

    // ---- the daily extraction budget --------------------------------------------------------------

    /**
     * {@inheritDoc}
     *
     * <p>Here one guarded upsert on the tenant's row of the day ({@code extractionTokens.reserve}):
     * PostgreSQL locks the row it conflicts with and checks the limit against its newest version,
     * so the reservations of every process serving the tenant add up within the limit.
     */
    @Override
    public boolean reserveExtractionTokens(LocalDate day, long tokens, long dailyLimit, Instant now) {
        Objects.requireNonNull(day, "day");
        Objects.requireNonNull(now, "now");
        requireAtLeast("tokens", tokens, 1);
        requireAtLeast("dailyLimit", dailyLimit, 1);
        return state.write("reserve " + tokens + " extraction tokens of " + day, tx -> tx.update(
                "extractionTokens.reserve", day.toString(), tokens, now.getEpochSecond(), tokens, dailyLimit,
                dailyLimit) > 0);
    }

    @Override
    public void settleExtractionTokens(LocalDate day, long reserved, long used, Instant now) {
        Objects.requireNonNull(day, "day");
        Objects.requireNonNull(now, "now");
        requireAtLeast("reserved", reserved, 0);
        requireAtLeast("used", used, 0);
        long correction = used - reserved;
        state.write("settle extraction tokens of " + day, tx -> tx.update("extractionTokens.settle", day.toString(),
                Math.max(0, correction), now.getEpochSecond(), correction));
    }

    @Override
    public long extractionTokensSpent(LocalDate day) {
        Objects.requireNonNull(day, "day");
        return state.read("read extraction tokens of " + day, tx -> tx.queryLong("extractionTokens.spent",
                day.toString()));
    }

    @Override
    public boolean deferStage1Job(String threadId, String ownershipToken, String reason, Instant retryAt, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(retryAt, "retryAt");
        Objects.requireNonNull(now, "now");
        return state.write("defer Phase 1 job of thread " + threadId, tx -> tx.update("stage1.defer",
                now.getEpochSecond(), retryAt.getEpochSecond(), reason, threadId, ownershipToken) > 0);
    }

    private static void requireAtLeast(String name, long value, long least) {
        if (value < least) {
            throw new IllegalArgumentException(name + " must be at least " + least + ", was " + value);
        }
    }
}
