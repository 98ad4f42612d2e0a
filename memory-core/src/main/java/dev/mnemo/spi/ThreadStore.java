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
     * as polluted loses its stage-1 memory as {@link #markThreadPolluted} does.
     */
    void upsertThread(ThreadInfo thread);

    Optional<ThreadInfo> thread(String threadId);

    /** All threads, most recently updated first. */
    List<ThreadInfo> threads();

    /**
     * Sets the memory mode. {@link MemoryMode#POLLUTED} behaves as {@link #markThreadPolluted}.
     *
     * @return false when no such thread exists
     */
    boolean setThreadMemoryMode(String threadId, MemoryMode mode, Instant now);

    /**
     * Marks the thread polluted and deletes its stage-1 memory. When that memory was part of the
     * last consolidation, Phase 2 is enqueued (even if the thread was already polluted) so the
     * workspace forgets it too.
     *
     * @return true if the mode changed
     */
    boolean markThreadPolluted(String threadId, Instant now);

    /**
     * Deletes the thread, its stage-1 memory and its Phase 1 job in one transaction; enqueues
     * Phase 2 when the memory was part of the last consolidation.
     *
     * @return true if a thread row was deleted
     */
    boolean deleteThread(String threadId, Instant now);
}
