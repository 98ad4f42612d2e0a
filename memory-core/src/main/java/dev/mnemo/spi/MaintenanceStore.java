package dev.mnemo.spi;

import dev.mnemo.MemoryStatus;
import java.time.Instant;

/**
 * Maintenance across the roles: releasing a closing worker's jobs, clearing every memory, and the
 * status figures.
 *
 * <p>One role of a {@link MemoryStore}: a store implements it as part of the composite, and a
 * component that needs only this role asks for only this interface. The rules of the composite
 * apply (safe for several threads and processes; {@code now} is the engine's clock; failures are
 * {@link dev.mnemo.MemoryStoreException}s).
 */
public interface MaintenanceStore {

    /**
     * Releases every job {@code workerId} holds as failed-for-retry (no backoff, no retry spent), so
     * another worker can take it at once. Used when an engine closes with work still running.
     *
     * @param workerId the closing worker
     * @param reason why, stored as each job's last error
     * @param now the current time on the engine's clock
     * @return jobs released
     */
    int releaseJobs(String workerId, String reason, Instant now);

    /** Deletes every stage-1 memory and every memory job; thread rows and their modes stay. */
    void clearMemoryData();

    /**
     * Job counts, leases, last consolidation, thread counts (no startup skip reason: the engine adds it).
     *
     * @param now the current time on the engine's clock
     * @return the store's status figures
     */
    MemoryStatus status(Instant now);

    /**
     * {@link #status(Instant)} with {@link MemoryStatus#unusedMemories()}: the stored memories of
     * enabled threads outside the {@code maxUnusedDays} window of the Phase 2 selection. The default
     * leaves that figure unknown; stores override it with one query.
     *
     * @param now the current time on the engine's clock
     * @param maxUnusedDays the Phase 2 selection's {@code max_unused_days}
     * @return the store's status figures, with the unused memories when the store counts them
     */
    default MemoryStatus status(Instant now, int maxUnusedDays) {
        return status(now);
    }
}
