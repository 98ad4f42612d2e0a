package dev.mnemo.postgres;

import dev.mnemo.MemoryStatus;
import dev.mnemo.ModelFailure;
import dev.mnemo.llm.ModelException;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.Phase2ClaimPolicy;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * The {@code jobs} view of one tenant: Phase 1 jobs (key = thread id) and the Phase 2 singleton,
 * with write-sheet §3.4–3.6's leases, tokens, retries and backoffs; whether Phase 2 may be claimed
 * (and when next) is {@link Phase2ClaimPolicy}'s to say. Times are epoch seconds.
 */
final class JobRows {

    static final String STAGE1 = "memory_stage1";
    static final String PHASE2 = "memory_consolidate_global";
    /** Attempts per rollout version (Phase 1) and the retry budget a Phase 2 enqueue restores. */
    static final int DEFAULT_RETRY_REMAINING = 3;

    private static final List<String> KINDS = List.of(STAGE1, PHASE2);
    private static final List<String> STATUSES = List.of("running", "done", "error", "pending");

    /** The global row as read for a claim: what the policy decides on, and the watermark a claim hands out. */
    private record GlobalRow(Phase2ClaimPolicy.JobRow row, long inputWatermark) {
    }

    private JobRows() {
    }

    /**
     * Takes the tenant's claim lock of {@code kind} for the rest of the transaction: claims of one
     * kind serialise per tenant, as the running cap needs one writer at a time.
     */
    static void lockClaims(Tx tx, String kind) throws SQLException {
        tx.first("lock.claims", row -> Boolean.TRUE, kind);
    }

    // ---- Phase 1 --------------------------------------------------------------------------------

    /** Up to date when the stored memory or the last success already covers this rollout version. */
    static boolean isUpToDate(Tx tx, String threadId, Instant sourceUpdatedAt) throws SQLException {
        long source = sourceUpdatedAt.getEpochSecond();
        return tx.first("stage1.isUpToDate", row -> true, threadId, source, threadId, source).isPresent();
    }

    /** Claims one Phase 1 job; the caller holds the tenant's Phase 1 claim lock. */
    static JobClaim tryClaimStage1(Tx tx, String threadId, String workerId, Instant sourceUpdatedAt, Duration lease,
            int maxRunning, Instant now) throws SQLException {
        if (isUpToDate(tx, threadId, sourceUpdatedAt)) {
            return JobClaim.skipped(ClaimOutcome.SKIPPED_UP_TO_DATE);
        }
        String token = UUID.randomUUID().toString();
        long nowSeconds = now.getEpochSecond();
        int claimed = tx.update("stage1.claim", threadId, workerId, token, nowSeconds, nowSeconds + lease.toSeconds(),
                DEFAULT_RETRY_REMAINING, sourceUpdatedAt.getEpochSecond(), nowSeconds, maxRunning, maxRunning);
        if (claimed > 0) {
            return JobClaim.claimed(token, 0);
        }
        if (isUpToDate(tx, threadId, sourceUpdatedAt)) { // completed by another worker while we waited
            return JobClaim.skipped(ClaimOutcome.SKIPPED_UP_TO_DATE);
        }
        // Codex's order: exhausted, backing off, otherwise running (a live lease or the global cap).
        return JobClaim.skipped(tx.first("stage1.retryState", row -> {
            Long retryAt = Tx.nullableLong(row, "retry_at");
            if (row.getInt("retry_remaining") <= 0) {
                return ClaimOutcome.SKIPPED_RETRY_EXHAUSTED;
            }
            return retryAt != null && retryAt > nowSeconds ? ClaimOutcome.SKIPPED_RETRY_BACKOFF
                    : ClaimOutcome.SKIPPED_RUNNING;
        }, threadId).orElse(ClaimOutcome.SKIPPED_RUNNING));
    }

    /**
     * Completes an owned job; a success also means the model works again, so the last model
     * failure is forgotten.
     *
     * @return false when the caller no longer owns the job
     */
    static boolean markStage1Done(Tx tx, String threadId, String token, Instant now) throws SQLException {
        boolean owned = tx.update("stage1.markDone", now.getEpochSecond(), threadId, token) > 0;
        if (owned) {
            tx.update("modelFailure.clear");
        }
        return owned;
    }

    /**
     * Releases an owned job after a model failure: an error with a backoff, retries untouched, and
     * the failure kept as the tenant's last model failure.
     *
     * @return false when the caller no longer owns the job (nothing is written)
     */
    static boolean releaseStage1AfterModelFailure(Tx tx, String threadId, String token, ModelFailure failure,
            Duration retryDelay, Instant now) throws SQLException {
        long nowSeconds = now.getEpochSecond();
        boolean owned = tx.update("stage1.releaseAfterModelFailure", nowSeconds, nowSeconds + retryDelay.toSeconds(),
                failure.describe(), threadId, token) > 0;
        if (owned) {
            tx.update("modelFailure.record", failure.reason().name(), failure.message(),
                    failure.at().getEpochSecond());
        }
        return owned;
    }

    static void clearModelFailure(Tx tx) throws SQLException {
        tx.update("modelFailure.clear");
    }

    /** The last model failure, while no Phase 1 job has succeeded since. */
    static Optional<ModelFailure> lastModelFailure(Tx tx) throws SQLException {
        return tx.first("modelFailure.last", row -> new ModelFailure(reason(row.getString("reason")),
                row.getString("message"), Instant.ofEpochSecond(row.getLong("failed_at"))));
    }

    /** A stored reason; one this version does not know (written by a newer one) reads as UNKNOWN. */
    private static ModelException.Reason reason(String name) {
        try {
            return ModelException.Reason.valueOf(name);
        } catch (IllegalArgumentException e) {
            return ModelException.Reason.UNKNOWN;
        }
    }

    static boolean markStage1Failed(Tx tx, String threadId, String token, String reason, Duration retryDelay,
            Instant now) throws SQLException {
        long nowSeconds = now.getEpochSecond();
        return tx.update("stage1.markFailed", nowSeconds, nowSeconds + retryDelay.toSeconds(), reason, threadId,
                token) > 0;
    }

    static OptionalLong stage1InputWatermark(Tx tx, String threadId) throws SQLException {
        return tx.first("stage1.inputWatermark", row -> Tx.nullableLong(row, "input_watermark"), threadId)
                .map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    static int deleteStage1(Tx tx, String threadId) throws SQLException {
        return tx.update("stage1.delete", threadId);
    }

    // ---- Phase 2 --------------------------------------------------------------------------------

    static void enqueuePhase2(Tx tx, long inputWatermark) throws SQLException {
        tx.update("phase2.enqueue", DEFAULT_RETRY_REMAINING, inputWatermark);
    }

    /**
     * The global lock, as {@link Phase2ClaimPolicy} decides it: the row made to exist (a first claim
     * and a Phase 1 completion on another server may insert it at the same moment, so the insert
     * does nothing on a conflict), read and locked, decided on, then taken over only while it is
     * still the row decided on. The caller holds the tenant's Phase 2 claim lock. {@code pastCooldown}:
     * {@link Phase2ClaimPolicy#decidePastCooldown}, for work that must not wait.
     */
    static JobClaim tryClaimPhase2(Tx tx, String workerId, Duration lease, Instant now, boolean pastCooldown)
            throws SQLException {
        tx.update("phase2.ensureRow", DEFAULT_RETRY_REMAINING);
        GlobalRow read = tx.first("phase2.rowForUpdate", JobRows::globalRow).orElseThrow();
        ClaimOutcome decision = pastCooldown ? Phase2ClaimPolicy.decidePastCooldown(read.row(), now)
                : Phase2ClaimPolicy.decide(read.row(), now);
        if (decision != ClaimOutcome.CLAIMED) {
            return JobClaim.skipped(decision);
        }
        Phase2ClaimPolicy.JobRow row = read.row();
        long nowSeconds = now.getEpochSecond();
        String token = UUID.randomUUID().toString();
        int updated = tx.update("phase2.takeOver", workerId, token, nowSeconds, nowSeconds + lease.toSeconds(),
                row.status(), row.leaseUntil(), row.retryAt(), row.finishedAt(), row.lastError());
        return updated > 0 ? JobClaim.claimed(token, read.inputWatermark())
                : JobClaim.skipped(ClaimOutcome.SKIPPED_RUNNING);
    }

    /** The global row as {@link Phase2ClaimPolicy} reads it (for the status report). */
    static Optional<Phase2ClaimPolicy.JobRow> phase2Row(Tx tx) throws SQLException {
        return tx.first("phase2.row", JobRows::globalRow).map(GlobalRow::row);
    }

    private static GlobalRow globalRow(ResultSet row) throws SQLException {
        return new GlobalRow(new Phase2ClaimPolicy.JobRow(row.getString("status"), Tx.nullableLong(row, "lease_until"),
                Tx.nullableLong(row, "retry_at"), Tx.nullableLong(row, "finished_at"), row.getString("last_error")),
                row.getLong("input_watermark"));
    }

    static boolean heartbeatPhase2(Tx tx, String token, Duration lease, Instant now) throws SQLException {
        return tx.update("phase2.heartbeat", now.getEpochSecond() + lease.toSeconds(), token) > 0;
    }

    static boolean markPhase2Succeeded(Tx tx, String token, long completedWatermark, Instant now)
            throws SQLException {
        return tx.update("phase2.markSucceeded", now.getEpochSecond(), now.getEpochSecond(), completedWatermark,
                token) > 0;
    }

    /** Fails the owned job ({@code unownedToo}: or a running one whose token was lost). */
    static boolean markPhase2Failed(Tx tx, String token, String reason, Duration retryDelay, Instant now,
            boolean unownedToo) throws SQLException {
        long nowSeconds = now.getEpochSecond();
        return tx.update(unownedToo ? "phase2.markFailedIfUnowned" : "phase2.markFailed", nowSeconds,
                nowSeconds + retryDelay.toSeconds(), reason, token) > 0;
    }

    // ---- both kinds -----------------------------------------------------------------------------

    /** Every running job of {@code workerId} becomes failed-for-retry at once. */
    static int release(Tx tx, String workerId, String reason, Instant now) throws SQLException {
        long nowSeconds = now.getEpochSecond();
        return tx.update("jobs.release", nowSeconds, nowSeconds, reason, workerId);
    }

    static int deleteMemoryJobs(Tx tx) throws SQLException {
        return tx.update("jobs.deleteMemoryJobs");
    }

    /** Per kind, the number of jobs in each status; every known kind and status is present. */
    static Map<String, Map<String, Integer>> countsByKind(Tx tx) throws SQLException {
        Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
        for (String kind : KINDS) {
            Map<String, Integer> byStatus = new LinkedHashMap<>();
            STATUSES.forEach(status -> byStatus.put(status, 0));
            counts.put(kind, byStatus);
        }
        tx.query("jobs.countsByKind", row -> counts.computeIfAbsent(row.getString(1), kind -> new LinkedHashMap<>())
                .merge(row.getString(2), row.getInt(3), Integer::sum));
        counts.replaceAll((kind, byStatus) -> Map.copyOf(byStatus));
        return counts;
    }

    /** Running jobs with a lease, soonest expiry first. */
    static List<MemoryStatus.Lease> runningLeases(Tx tx) throws SQLException {
        return tx.query("jobs.runningLeases", row -> new MemoryStatus.Lease(row.getString(1), row.getString(2),
                row.getString(3), Instant.ofEpochSecond(row.getLong(4))));
    }
}
