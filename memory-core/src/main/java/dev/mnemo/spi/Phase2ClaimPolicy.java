package dev.mnemo.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * For store authors: Codex's Phase 2 global-lock rules (write-sheet §3.4, §5.1) as pure functions
 * over the {@code memory_consolidate_global} job row, so every store claims, and explains when the
 * next consolidation may start, the same way. A store's
 * {@link MemoryStore#tryClaimPhase2Job tryClaimPhase2Job} does in SQL only what SQL must do:
 *
 * <ol>
 *   <li>make sure the row exists (insert a {@code pending} one if missing, doing
 *       nothing on a conflict: another server may insert it at the same moment);</li>
 *   <li>read it ({@link JobRow}) inside the claim's transaction;</li>
 *   <li>ask {@link #decide};</li>
 *   <li>on {@link ClaimOutcome#CLAIMED}, take the lock with an {@code UPDATE} guarded by "the row is
 *       still the one decided on" (the columns of {@link JobRow} unchanged); no row updated means
 *       another worker got there first: {@link ClaimOutcome#SKIPPED_RUNNING}.</li>
 * </ol>
 *
 * <p>The constants are Codex's {@code stage_two} ones; the engine passes {@link #JOB_LEASE} to the
 * claim and heartbeat, {@link #RETRY_DELAY} to a failure, and beats every {@link #HEARTBEAT}.
 */
public final class Phase2ClaimPolicy {

    /** Codex {@code stage_two::JOB_LEASE_SECONDS}: how long a claim holds the lock without a heartbeat. */
    public static final Duration JOB_LEASE = Duration.ofSeconds(3_600);
    /** Codex {@code stage_two::JOB_HEARTBEAT_SECONDS}: how often a running consolidation extends its lease. */
    public static final Duration HEARTBEAT = Duration.ofSeconds(90);
    /** Codex {@code stage_two::JOB_RETRY_DELAY_SECONDS}: the backoff after a failed consolidation. */
    public static final Duration RETRY_DELAY = Duration.ofSeconds(3_600);
    /** No new consolidation within six hours of a successful one. */
    public static final Duration SUCCESS_COOLDOWN = Duration.ofHours(6);

    /** The status of a row whose owner holds the lock until its lease expires. */
    private static final String STATUS_RUNNING = "running";

    /**
     * The global job row, as far as the claim decision and the status report care; times in epoch
     * seconds, {@code null} where the column is.
     *
     * @param status {@code running}, {@code done}, {@code error} or {@code pending}
     * @param leaseUntil the running owner's lease expiry
     * @param retryAt no new attempt before this (set by a failure)
     * @param finishedAt when the last attempt ended; a success while {@code lastError} is null
     * @param lastError the last failure reason, cleared by a success
     */
    public record JobRow(String status, Long leaseUntil, Long retryAt, Long finishedAt, String lastError) {
        /**
         * Checks the row.
         *
         * @param status {@code running}, {@code done}, {@code error} or {@code pending}; not null
         * @param leaseUntil the running owner's lease expiry, or null
         * @param retryAt no new attempt before this, or null
         * @param finishedAt when the last attempt ended, or null
         * @param lastError the last failure reason, or null
         * @throws NullPointerException when {@code status} is null
         */
        public JobRow {
            Objects.requireNonNull(status, "status");
        }
    }

    private Phase2ClaimPolicy() {
    }

    /**
     * May the lock be taken now? Codex's order: a failure's backoff ({@link ClaimOutcome#SKIPPED_RETRY_UNAVAILABLE}),
     * a live lease ({@link ClaimOutcome#SKIPPED_RUNNING}), the success cooldown
     * ({@link ClaimOutcome#SKIPPED_COOLDOWN}); otherwise {@link ClaimOutcome#CLAIMED}: take it over
     * with the guarded update. An expired lease is taken over; the retry budget never blocks Phase 2.
     *
     * @param row the job row, read in the claim's transaction
     * @param now the current time on the engine's clock
     * @return {@code CLAIMED}, or why the lock may not be taken
     */
    public static ClaimOutcome decide(JobRow row, Instant now) {
        Objects.requireNonNull(row, "row");
        long nowSeconds = now.getEpochSecond();
        if (row.retryAt() != null && row.retryAt() > nowSeconds) {
            return ClaimOutcome.SKIPPED_RETRY_UNAVAILABLE;
        }
        if (STATUS_RUNNING.equals(row.status()) && row.leaseUntil() != null && row.leaseUntil() > nowSeconds) {
            return ClaimOutcome.SKIPPED_RUNNING;
        }
        if (cooldownEnd(row).filter(end -> end.isAfter(now)).isPresent()) {
            return ClaimOutcome.SKIPPED_COOLDOWN;
        }
        return ClaimOutcome.CLAIMED;
    }

    /**
     * May the lock be taken now by work that must not wait, a forget or an operator's "consolidate
     * now" ({@link MemoryStore#tryClaimPhase2JobNow})? Only a live lease holds it off
     * ({@link ClaimOutcome#SKIPPED_RUNNING}); the success cooldown and a failure's backoff do not.
     *
     * @param row the job row, read in the claim's transaction
     * @param now the current time on the engine's clock
     * @return {@code CLAIMED}, or {@code SKIPPED_RUNNING}
     */
    public static ClaimOutcome decidePastCooldown(JobRow row, Instant now) {
        Objects.requireNonNull(row, "row");
        if (STATUS_RUNNING.equals(row.status()) && row.leaseUntil() != null
                && row.leaseUntil() > now.getEpochSecond()) {
            return ClaimOutcome.SKIPPED_RUNNING;
        }
        return ClaimOutcome.CLAIMED;
    }

    /**
     * The last successful consolidation: {@code finishedAt} while no error is recorded (a later
     * enqueue keeps it; a claim clears it while the consolidation runs).
     *
     * @param row the job row
     * @return when the last successful consolidation ended, or empty when the last attempt failed or none ended
     */
    public static Optional<Instant> lastSuccess(JobRow row) {
        Objects.requireNonNull(row, "row");
        return row.lastError() == null && row.finishedAt() != null
                ? Optional.of(Instant.ofEpochSecond(row.finishedAt())) : Optional.empty();
    }

    /**
     * When the next consolidation may start, if not now: the failure backoff while it lasts, else the
     * end of the success cooldown while it lasts. A live lease is reported as a running lease, not here.
     *
     * @param row the job row
     * @param now the current time on the engine's clock
     * @return the earliest start, or empty when one may start now
     */
    public static Optional<Instant> notBefore(JobRow row, Instant now) {
        Objects.requireNonNull(row, "row");
        if (row.retryAt() != null && row.retryAt() > now.getEpochSecond()) {
            return Optional.of(Instant.ofEpochSecond(row.retryAt()));
        }
        return cooldownEnd(row).filter(end -> end.isAfter(now));
    }

    private static Optional<Instant> cooldownEnd(JobRow row) {
        return lastSuccess(row).map(success -> success.plus(SUCCESS_COOLDOWN));
    }
}
