package dev.mnemo.spi;

import dev.mnemo.ThreadInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a Phase 1 startup claim may take (Codex's {@code Stage1StartupClaimParams}).
 *
 * @param currentThreadId the thread running the pipeline; never claimed (may be empty)
 * @param workerId who will own the claimed jobs
 * @param scanLimit how many candidate threads to look at, newest first (Codex: 5,000)
 * @param maxClaimed how many to claim; also the cap on running Phase 1 jobs across all workers
 * @param maxAgeDays only threads updated within this many days
 * @param minIdleHours only threads idle for at least this many hours, unless finished
 *     ({@link #passesIdleGate})
 * @param allowedSources only threads from these sources
 * @param lease how long a claim is held before another worker may take it over
 */
public record Stage1ClaimParams(String currentThreadId, String workerId, int scanLimit, int maxClaimed,
        int maxAgeDays, int minIdleHours, List<String> allowedSources, Duration lease) {
    /**
     * Checks the parameters and copies {@code allowedSources}.
     *
     * @param currentThreadId the thread running the pipeline; never claimed (may be empty)
     * @param workerId who will own the claimed jobs
     * @param scanLimit how many candidate threads to look at, at least 0
     * @param maxClaimed how many to claim, at least 0
     * @param maxAgeDays only threads updated within this many days
     * @param minIdleHours only threads idle for at least this many hours, unless finished
     * @param allowedSources only threads from these sources
     * @param lease how long a claim is held before another worker may take it over
     * @throws IllegalArgumentException when {@code scanLimit} or {@code maxClaimed} is negative
     */
    public Stage1ClaimParams {
        Objects.requireNonNull(currentThreadId, "currentThreadId");
        Objects.requireNonNull(workerId, "workerId");
        allowedSources = List.copyOf(Objects.requireNonNull(allowedSources, "allowedSources"));
        Objects.requireNonNull(lease, "lease");
        if (scanLimit < 0 || maxClaimed < 0) {
            throw new IllegalArgumentException("scanLimit and maxClaimed must not be negative, were " + scanLimit
                    + " and " + maxClaimed);
        }
    }

    /**
     * Whether a claim with these parameters can take nothing, whatever the rows say: no candidate
     * may be scanned, none may be claimed, or no source is allowed. A store returns at once.
     *
     * @return true when the claim can take nothing
     */
    public boolean claimsNothing() {
        return scanLimit == 0 || maxClaimed == 0 || allowedSources.isEmpty();
    }

    /**
     * The age gate's bound: a thread last updated before it is too old to extract.
     *
     * @param now the current time on the engine's clock
     * @return {@code now} less {@code maxAgeDays} days (0 when negative)
     */
    public Instant ageCutoff(Instant now) {
        return now.minus(Duration.ofDays(Math.max(maxAgeDays, 0)));
    }

    /**
     * The idle gate's bound: a thread last updated after it may still be going on.
     *
     * @param now the current time on the engine's clock
     * @return {@code now} less {@code minIdleHours} hours (0 when negative)
     */
    public Instant idleCutoff(Instant now) {
        return now.minus(Duration.ofHours(Math.max(minIdleHours, 0)));
    }

    /**
     * The idle gate, Codex's {@code min_rollout_idle_hours} plus Mnemo's end: a thread passes when it
     * was last updated at or before {@link #idleCutoff}, or when it is {@link ThreadInfo#finished()
     * finished} (the application ended it at or after its last update), whatever its age. Codex
     * waits because it cannot know that a session is over; an application that ended its
     * conversation can. Every other gate (age, source, memory mode, current thread, leases,
     * retries) applies to a finished thread as to any other. A store's claim query writes the same
     * test in SQL, in milliseconds: {@code updated_at_ms <= idleCutoff OR ended_at_ms >= updated_at_ms}.
     *
     * @param thread the candidate thread's row
     * @param now the current time on the engine's clock
     * @return true when the thread is idle long enough or finished
     */
    public boolean passesIdleGate(ThreadInfo thread, Instant now) {
        return thread.updatedAt().toEpochMilli() <= idleCutoff(now).toEpochMilli() || thread.finished();
    }
}
