package dev.mnemo.postgres;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.ThreadStore;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The threads of one tenant ({@link ThreadStore}), a role of {@link PostgresMemoryStore}: the
 * {@code threads} view through {@link ThreadRows}. Polluting or deleting a thread forgets its memory
 * in the same transaction ({@link OutputRows#forget}, which queues Phase 2 when the memory was in
 * the last consolidation); a delete also drops its Phase 1 job and its spawn edges. The tables a
 * forget deleted from are vacuumed in the background.
 */
final class PostgresThreadStore implements ThreadStore {

    private final StateTransactions state;

    PostgresThreadStore(StateTransactions state) {
        this.state = state;
    }

    @Override
    public void upsertThread(ThreadInfo thread) {
        Objects.requireNonNull(thread, "thread");
        boolean forgot = state.write("upsert thread " + thread.id(),
                tx -> ThreadRows.upsert(tx, thread) == MemoryMode.POLLUTED
                        && OutputRows.forget(tx, thread.id(), thread.updatedAt()));
        if (forgot) {
            state.vacuumAfterForget("forgetting polluted thread " + thread.id());
        }
    }

    @Override
    public Optional<ThreadInfo> thread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return state.read("read thread " + threadId, tx -> ThreadRows.find(tx, threadId));
    }

    @Override
    public List<ThreadInfo> threads() {
        return state.read("list threads", ThreadRows::all);
    }

    @Override
    public boolean setThreadMemoryMode(String threadId, MemoryMode mode, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(now, "now");
        if (mode == MemoryMode.POLLUTED) {
            if (thread(threadId).isEmpty()) {
                return false;
            }
            markThreadPolluted(threadId, now);
            return true;
        }
        return state.write("set memory mode of thread " + threadId, tx -> ThreadRows.setMode(tx, threadId, mode)) > 0;
    }

    @Override
    public boolean markThreadPolluted(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean[] forgot = new boolean[1];
        boolean changed = state.write("mark thread " + threadId + " polluted", tx -> {
            boolean modeChanged = ThreadRows.markPolluted(tx, threadId);
            forgot[0] = OutputRows.forget(tx, threadId, now);
            return modeChanged;
        });
        if (forgot[0]) {
            state.vacuumAfterForget("polluting thread " + threadId);
        }
        return changed;
    }

    @Override
    public boolean deleteThread(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean[] deletedAny = new boolean[1];
        boolean deleted = state.write("delete thread " + threadId, tx -> {
            boolean forgot = OutputRows.forget(tx, threadId, now);
            boolean job = JobRows.deleteStage1(tx, threadId) > 0;
            PostgresSpawnGraphStore.deleteEdgesOf(tx, threadId);
            boolean thread = ThreadRows.delete(tx, threadId);
            deletedAny[0] = forgot || job || thread;
            return thread;
        });
        if (deletedAny[0]) {
            state.vacuumAfterForget("deleting thread " + threadId);
        }
        return deleted;
    }

    /** {@inheritDoc} Only the thread of this store's tenant is marked. */
    @Override
    public boolean markThreadEnded(String threadId, Instant endedAt) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(endedAt, "endedAt");
        return state.write("mark thread " + threadId + " ended", tx -> ThreadRows.markEnded(tx, threadId, endedAt));
    }
}
