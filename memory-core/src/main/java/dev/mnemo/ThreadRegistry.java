package dev.mnemo;

import java.util.List;
import java.util.Optional;

/** The threads Mnemo knows about and whether each may become memory. */
public interface ThreadRegistry {

    /**
     * Inserts or replaces the thread's row; its memory mode is never loosened this way (a disabled
     * or polluted thread stays so), use {@link #setMemoryMode} for that.
     *
     * @param thread the thread's row
     */
    void upsert(ThreadInfo thread);

    /**
     * The thread's row.
     *
     * @param threadId the thread
     * @return the row, or empty when no such thread is registered
     */
    Optional<ThreadInfo> get(String threadId);

    /**
     * Every registered thread, most recently updated first.
     *
     * @return the threads; empty when none is registered
     */
    List<ThreadInfo> list();

    /**
     * Marks the thread polluted (external context reached it): its memory is forgotten and it is
     * never extracted again. When its memory was part of the last consolidation, a new
     * consolidation is queued so the workspace forgets it too.
     *
     * @param threadId the thread
     * @return true if the mode changed
     */
    boolean markPolluted(String threadId);

    /**
     * Sets the thread's memory mode. Setting {@link MemoryMode#POLLUTED} is the same as
     * {@link #markPolluted}.
     *
     * @param threadId the thread
     * @param mode the new memory mode
     * @throws IllegalArgumentException when no such thread exists
     */
    void setMemoryMode(String threadId, MemoryMode mode);

    /**
     * Removes the thread and forgets its memory; re-consolidates when the memory was in use. A
     * rollout Mnemo recorded itself (under {@code <home>/sessions}) is deleted too; a rollout read
     * from another source, such as Codex's sessions folder, is never touched.
     *
     * @param threadId the thread
     */
    void delete(String threadId);
}
