package dev.mnemo.spi;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The thread registry: one row per conversation (its rollout, project, memory mode), Codex's
 * {@code threads} table.
 *
 * <p>One role of a {@link MemoryStore}: a store implements it as part of the composite, and a
 * component that needs only this role asks for only this interface. The rules of the composite
 * apply (safe for several threads and processes; {@code now} is the engine's clock; failures are
 * {@link dev.mnemo.MemoryStoreException}s).
 */
public interface ThreadStore {

    /**
     * Inserts or replaces a thread row, except that the stored memory mode is never loosened: the
     * row keeps the stricter of the stored and the given mode ({@code POLLUTED} over {@code DISABLED}
     * over {@code ENABLED}), decided atomically with the write. So a recorder or a rollout scan that
     * read the row before a concurrent {@link #setThreadMemoryMode} or {@link #markThreadPolluted}
     * cannot undo it; {@link #setThreadMemoryMode} is the only way to loosen a mode. A row upserted
     * as polluted loses its stage-1 memory as {@link #markThreadPolluted} does. The end mark
     * ({@link #markThreadEnded}) is kept as stored: an upsert neither sets nor clears it, whatever
     * {@link ThreadInfo#endedAt()} says, so a rollout scan cannot wipe it; an upsert with a later
     * {@code updatedAt} makes the thread unfinished by the rule of {@link ThreadInfo#finished()}.
     *
     * @param thread the thread's row
     */
    void upsertThread(ThreadInfo thread);

    /**
     * One thread's row.
     *
     * @param threadId the conversation's thread id
     * @return the row, or empty when no such thread is registered
     */
    Optional<ThreadInfo> thread(String threadId);

    /**
     * All threads, most recently updated first.
     *
     * @return every thread's row; empty when none is registered
     */
    List<ThreadInfo> threads();

    /**
     * Sets the memory mode. {@link MemoryMode#POLLUTED} behaves as {@link #markThreadPolluted}.
     *
     * @param threadId the conversation's thread id
     * @param mode the new memory mode; it may loosen the stored one
     * @param now the current time on the engine's clock
     * @return false when no such thread exists
     */
    boolean setThreadMemoryMode(String threadId, MemoryMode mode, Instant now);

    /**
     * Marks the thread polluted and deletes its stage-1 memory. When that memory was part of the
     * last consolidation, Phase 2 is enqueued (even if the thread was already polluted) so the
     * workspace forgets it too.
     *
     * @param threadId the conversation's thread id
     * @param now the current time on the engine's clock
     * @return true if the mode changed
     */
    boolean markThreadPolluted(String threadId, Instant now);

    /**
     * Deletes the thread, its stage-1 memory and its Phase 1 job in one transaction; enqueues
     * Phase 2 when the memory was part of the last consolidation.
     *
     * @param threadId the conversation's thread id
     * @param now the current time on the engine's clock
     * @return true if a thread row was deleted
     */
    boolean deleteThread(String threadId, Instant now);

    /**
     * Records that the application ended the conversation at {@code endedAt}
     * ({@link dev.mnemo.MemorySession#end()}): from then on {@link #thread} reports it in
     * {@link ThreadInfo#endedAt()}, and while no later line is recorded
     * ({@link ThreadInfo#finished()}) the Phase 1 claim takes it without waiting for
     * {@code min_rollout_idle_hours} ({@link Stage1ClaimParams#passesIdleGate}). The stored mark
     * never moves back: ending again with an earlier time keeps the later one. Only this thread of
     * this store (of this tenant, in a store that serves several) is marked.
     *
     * @param threadId the conversation's thread id
     * @param endedAt when the application ended the conversation
     * @return false when no such thread exists
     * @throws UnsupportedOperationException from a store written before ended conversations existed
     */
    default boolean markThreadEnded(String threadId, Instant endedAt) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not record ended conversations;"
                + " implement ThreadStore.markThreadEnded to let an ended conversation skip the idle wait");
    }
}
