package dev.mnemo.spi;

import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * What a forget needs beyond the rows: which consolidations used a thread, and which forgets the
 * workspace has still to complete. The defaults fail, for stores that keep no such record.
 *
 * <p>One role of a {@link MemoryStore}: a store implements it as part of the composite, and a
 * component that needs only this role asks for only this interface. The rules of the composite
 * apply (safe for several threads and processes; {@code now} is the engine's clock; failures are
 * {@link dev.mnemo.MemoryStoreException}s).
 */
public interface ForgetStore {

    /**
     * Records that a consolidation committed at {@code at} used the memories of {@code threadIds},
     * keeping the earliest time already recorded for a thread. Written for every selected thread
     * of each successful consolidation, before its files are committed, so a forget never has to
     * conclude from the kept workspace history alone (which {@code history_retention} trims) that a
     * thread's text is in no file. Thread deletion does not remove the record: the forget reads it.
     *
     * @param threadIds the threads whose memories the consolidation used
     * @param at when the consolidation was committed
     * @throws UnsupportedOperationException for stores that keep no such record (the default)
     */
    default void recordConsolidatedThreads(Collection<String> threadIds, Instant at) {
        throw noForgetLedger();
    }

    /**
     * When the first consolidation that used {@code threadId} was committed, as recorded by
     * {@link #recordConsolidatedThreads}; empty when no recorded consolidation used it. A store
     * upgraded from a version without the record reports {@link Instant#EPOCH} for each memory that
     * was selected then: older than any kept history, so a forget of it restores an empty folder.
     *
     * @param threadId the conversation's thread id
     * @return the time of the first recorded consolidation that used it, or empty
     * @throws UnsupportedOperationException for stores that keep no such record (the default)
     */
    default Optional<Instant> firstConsolidated(String threadId) {
        throw noForgetLedger();
    }

    /**
     * Durably notes that the workspace must still drop what it holds of {@code threadId}: the
     * memory was forgotten in the store, the files and history may still hold its text. Survives a
     * failed consolidation and a dead process; every Phase 2 run completes the pending forgets
     * before anything else and after its last write.
     *
     * @param threadId the conversation's thread id
     * @param now the current time on the engine's clock
     * @throws UnsupportedOperationException for stores that keep no such record (the default)
     */
    default void addPendingForget(String threadId, Instant now) {
        throw noForgetLedger();
    }

    /**
     * The threads whose forget the workspace has not completed yet (see {@link #addPendingForget}).
     *
     * @return the threads' ids; empty when none is pending (always, by default)
     */
    default Set<String> pendingForgets() {
        return Set.of();
    }

    /**
     * The workspace no longer holds anything of {@code threadIds}: their pending forgets and their
     * consolidation records go.
     *
     * @param threadIds the threads whose forgets the workspace completed
     * @throws UnsupportedOperationException for stores that keep no such record (the default)
     */
    default void completeForgets(Collection<String> threadIds) {
        throw noForgetLedger();
    }

    private UnsupportedOperationException noForgetLedger() {
        return new UnsupportedOperationException(getClass().getName() + " keeps no record of consolidated threads "
                + "or pending forgets, so a forget relies on the kept workspace history alone");
    }
}
