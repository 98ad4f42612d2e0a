package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.seconds;

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
 * The {@link Stage1Store} role of {@link SqliteMemoryStore}: Phase 1's jobs (claims in batches,
 * completions guarded by the ownership token) and the stage-1 memories they store, with the usage
 * the read path records and the retention that prunes them. A completion that stores a memory not
 * awaiting approval, or deletes one, queues Phase 2 in the same write transaction
 * ({@link Phase2JobQueries#enqueue}).
 */
final class SqliteStage1 implements Stage1Store {

    /** The store's own category, so log configuration written for it keeps working. */
    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);

    /**
     * Phase 1 claims made in one write transaction at most: a few milliseconds of the write lock,
     * so other writers (also in other processes) wait no longer than for a few of their own turns.
     */
    static final int CLAIMS_PER_TRANSACTION = 32;

    private final SqliteDatabase database;

    SqliteStage1(SqliteDatabase database) {
        this.database = database;
    }

    @Override
    public List<Stage1Claim> claimStage1Jobs(Stage1ClaimParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        if (params.claimsNothing()) {
            return List.of();
        }
        // One streamed read: each candidate arrives with its up-to-date flag (no query per candidate)
        // and the scan stops once enough jobs are claimed. Candidates are claimed in batches of at
        // most CLAIMS_PER_TRANSACTION, each batch one write transaction on another connection that
        // re-checks every candidate, so a row extracted since the scan is skipped. A batch saves a
        // commit per claim while holding SQLite's write lock only for its claims, never through the
        // scan: one write transaction around the whole scan would hold it also through scans that
        // claim nothing, and another process's completions then lose to a worker that keeps
        // claiming, past the busy timeout (TwoProcessClaimTest).
        List<Stage1Claim> claimed = new ArrayList<>();
        List<ThreadInfo> batch = new ArrayList<>();
        int[] scanned = {0};
        database.read("scan Phase 1 candidates", connection -> {
            ThreadQueries.forEachClaimCandidate(connection, params, now, candidate -> {
                scanned[0]++;
                if (candidate.upToDate()) {
                    return true;
                }
                batch.add(candidate.thread());
                if (claimed.size() + batch.size() < params.maxClaimed() && batch.size() < CLAIMS_PER_TRANSACTION) {
                    return true;
                }
                claimed.addAll(claimBatch(batch, params, now));
                batch.clear();
                return claimed.size() < params.maxClaimed();
            });
            return null;
        });
        if (!batch.isEmpty()) {
            claimed.addAll(claimBatch(batch, params, now));
        }
        LOG.debug("Phase 1 claim by {}: {} candidates scanned, {} claimed", params.workerId(), scanned[0],
                claimed.size());
        return List.copyOf(claimed);
    }

    /** Claims each of {@code threads} that can still be claimed, in one write transaction. */
    private List<Stage1Claim> claimBatch(List<ThreadInfo> threads, Stage1ClaimParams params, Instant now) {
        return database.write("claim " + threads.size() + " Phase 1 jobs", connection -> Stage1JobQueries.tryClaimAll(
                connection, threads, params.workerId(), params.lease(), params.maxClaimed(), now));
    }

    @Override
    public List<Phase1Preview.Candidate> previewStage1Claims(Stage1ClaimParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        return List.copyOf(database.readSnapshot("preview Phase 1 claims",
                connection -> Stage1ClaimPreview.preview(connection, params, now)));
    }

    @Override
    public JobClaim tryClaimStage1Job(String threadId, String workerId, Instant sourceUpdatedAt, Duration lease,
            int maxRunning, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        return database.write("claim Phase 1 job of thread " + threadId, connection -> Stage1JobQueries.tryClaim(
                connection, threadId, workerId, sourceUpdatedAt, lease, maxRunning, now));
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now) {
        return markStage1Succeeded(threadId, ownershipToken, sourceUpdatedAt, result, now, false);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here the job, the memory and the Phase 2 enqueue are one write transaction.
     */
    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now, boolean awaitingApproval) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(now, "now");
        return database.write("complete Phase 1 job of thread " + threadId, connection -> {
            if (!Stage1JobQueries.markDone(connection, threadId, ownershipToken, now)) {
                return false;
            }
            if (Stage1OutputQueries.upsert(connection, threadId, sourceUpdatedAt, result, awaitingApproval, now) == 0) {
                LOG.debug("memory of thread {} not stored: a newer version exists or the thread is polluted",
                        threadId);
            } else if (awaitingApproval) {
                LOG.debug("memory of thread {} stored awaiting approval; no consolidation queued", threadId);
            } else {
                Phase2JobQueries.enqueue(connection, seconds(sourceUpdatedAt));
            }
            return true;
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here the job, the deletion and the Phase 2 enqueue are one write transaction.
     */
    @Override
    public boolean markStage1SucceededNoOutput(String threadId, String ownershipToken, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(now, "now");
        return database.write("complete Phase 1 job of thread " + threadId + " without output", connection -> {
            if (!Stage1JobQueries.markDone(connection, threadId, ownershipToken, now)) {
                return false;
            }
            long watermark = Stage1JobQueries.inputWatermark(connection, threadId).orElse(seconds(now));
            if (Stage1OutputQueries.delete(connection, threadId).deleted()) {
                Phase2JobQueries.enqueue(connection, watermark);
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
        return database.write("fail Phase 1 job of thread " + threadId, connection -> Stage1JobQueries.markFailed(
                connection, threadId, ownershipToken, reason, retryDelay, now));
    }

    @Override
    public boolean releaseStage1AfterModelFailure(String threadId, String ownershipToken, ModelFailure failure,
            Duration retryDelay, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(now, "now");
        return database.write("release Phase 1 job of thread " + threadId + " after a model failure",
                connection -> Stage1JobQueries.releaseAfterModelFailure(connection, threadId, ownershipToken, failure,
                        retryDelay, now));
    }

    @Override
    public Optional<Stage1Output> stage1Output(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return database.read("read memory of thread " + threadId,
                connection -> Stage1OutputQueries.find(connection, threadId));
    }

    @Override
    public int recordUsage(List<String> threadIds, Instant now) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        Objects.requireNonNull(now, "now");
        if (ids.isEmpty()) {
            return 0;
        }
        return database.write("record memory usage", connection -> Stage1OutputQueries.recordUsage(connection, ids,
                now));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A memory awaiting approval is never pruned: it waits for a person, not for a citation.
     */
    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now) {
        Objects.requireNonNull(now, "now");
        int pruned = database.write("prune memories",
                connection -> Stage1OutputQueries.prune(connection, maxUnusedDays, limit, now));
        if (pruned > 0) {
            LOG.info("pruned {} stage-1 memories unused for {} days", pruned, maxUnusedDays);
        }
        return pruned;
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now, Set<String> keep) {
        Objects.requireNonNull(now, "now");
        Set<String> spared = Set.copyOf(Objects.requireNonNull(keep, "keep"));
        int pruned = database.write("prune memories",
                connection -> Stage1OutputQueries.prune(connection, maxUnusedDays, limit, now, spared));
        if (pruned > 0) {
            LOG.info("pruned {} stage-1 memories unused for {} days (sparing {} a kept consolidation used)", pruned,
                    maxUnusedDays, spared.size());
        }
        return pruned;
    }

    @Override
    public List<DeadJob> deadStage1Jobs(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        }
        return List.copyOf(database.read("list dead Phase 1 jobs", connection -> DeadJobQueries.list(connection, limit)));
    }

    @Override
    public boolean retryStage1Job(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean retried = database.write("retry Phase 1 job of thread " + threadId,
                connection -> DeadJobQueries.retry(connection, threadId, now));
        if (retried) {
            LOG.info("Phase 1 job of thread {} put back: claimable now with its retries restored", threadId);
        }
        return retried;
    }

    @Override
    public int retryDeadStage1Jobs(Instant now) {
        Objects.requireNonNull(now, "now");
        int retried = database.write("retry dead Phase 1 jobs", DeadJobQueries::retryDead);
        if (retried > 0) {
            LOG.info("{} dead Phase 1 jobs put back: claimable now with their retries restored", retried);
        }
        return retried;
    }

    @Override
    public Optional<DeadJob> deadStage1Job(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return database.read("read dead Phase 1 job of thread " + threadId,
                connection -> DeadJobQueries.find(connection, threadId));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here one guarded upsert in a write transaction: SQLite's write lock serialises it with every
     * other process's.
     */
    @Override
    public boolean reserveExtractionTokens(LocalDate day, long tokens, long dailyLimit, Instant now) {
        Objects.requireNonNull(day, "day");
        Objects.requireNonNull(now, "now");
        requirePositive("tokens", tokens);
        requirePositive("dailyLimit", dailyLimit);
        return database.write("reserve " + tokens + " extraction tokens of " + day,
                connection -> ExtractionTokenQueries.reserve(connection, day, tokens, dailyLimit, now));
    }

    @Override
    public void settleExtractionTokens(LocalDate day, long reserved, long used, Instant now) {
        Objects.requireNonNull(day, "day");
        Objects.requireNonNull(now, "now");
        requireNotNegative("reserved", reserved);
        requireNotNegative("used", used);
        database.write("settle extraction tokens of " + day, connection -> {
            ExtractionTokenQueries.settle(connection, day, reserved, used, now);
            return null;
        });
    }

    @Override
    public long extractionTokensSpent(LocalDate day) {
        Objects.requireNonNull(day, "day");
        return database.read("read extraction tokens of " + day, connection -> ExtractionTokenQueries.spent(connection,
                day));
    }

    @Override
    public boolean deferStage1Job(String threadId, String ownershipToken, String reason, Instant retryAt, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(retryAt, "retryAt");
        Objects.requireNonNull(now, "now");
        return database.write("defer Phase 1 job of thread " + threadId, connection -> Stage1JobQueries.defer(
                connection, threadId, ownershipToken, reason, retryAt, now));
    }

    private static void requirePositive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
    }

    private static void requireNotNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
    }
}
