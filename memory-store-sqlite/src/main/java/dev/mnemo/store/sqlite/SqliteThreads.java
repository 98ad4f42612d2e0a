package dev.mnemo.store.sqlite;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.ThreadStore;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ThreadStore} role of {@link SqliteMemoryStore}: the {@code threads} rows and the
 * forgetting their memory mode asks for. Loosening or keeping a thread is a statement of
 * {@link ThreadQueries}; polluting or deleting one also forgets its stage-1 memory (queueing
 * Phase 2 when that memory was consolidated) in the same write transaction, and then checkpoints
 * the WAL so the forgotten text does not linger in it.
 */
final class SqliteThreads implements ThreadStore {

    private final SqliteDatabase database;

    SqliteThreads(SqliteDatabase database) {
        this.database = database;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Never loosens the stored memory mode ({@link ThreadQueries#upsert} keeps the stricter one);
     * a row upserted as polluted loses its stage-1 memory in the same transaction.
     */
    @Override
    public void upsertThread(ThreadInfo thread) {
        Objects.requireNonNull(thread, "thread");
        boolean forgot = database.write("upsert thread " + thread.id(), connection -> {
            MemoryMode mode = ThreadQueries.upsert(connection, thread);
            return mode == MemoryMode.POLLUTED && Stage1OutputQueries.forget(connection, thread.id(), thread.updatedAt());
        });
        if (forgot) {
            database.checkpointBestEffort();
        }
    }

    @Override
    public Optional<ThreadInfo> thread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return database.read("read thread " + threadId, connection -> ThreadQueries.find(connection, threadId));
    }

    @Override
    public List<ThreadInfo> threads() {
        return database.read("list threads", ThreadQueries::all);
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
        return database.write("set memory mode of thread " + threadId,
                connection -> ThreadQueries.setMode(connection, threadId, mode)) > 0;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here the thread's stage-1 memory is deleted in the same write transaction as the mode
     * change (queueing Phase 2 when it was in the last consolidation).
     */
    @Override
    public boolean markThreadPolluted(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean changed = database.write("mark thread " + threadId + " polluted", connection -> {
            boolean modeChanged = ThreadQueries.markPolluted(connection, threadId);
            Stage1OutputQueries.forget(connection, threadId, now);
            return modeChanged;
        });
        database.checkpointBestEffort();
        return changed;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here one write transaction deletes, in this order, the thread's stage-1 memory (queueing
     * Phase 2 when it was in the last consolidation), its Phase 1 job, its spawn edges and its row:
     * the thread owns them, so the rule lives with the thread rather than with each of their roles.
     */
    @Override
    public boolean deleteThread(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean deleted = database.write("delete thread " + threadId, connection -> {
            Stage1OutputQueries.forget(connection, threadId, now);
            Stage1JobQueries.delete(connection, threadId);
            SpawnEdgeQueries.deleteEdgesOf(connection, threadId);
            return ThreadQueries.delete(connection, threadId);
        });
        database.checkpointBestEffort();
        return deleted;
    }

    @Override
    public boolean markThreadEnded(String threadId, Instant endedAt) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(endedAt, "endedAt");
        return database.write("mark thread " + threadId + " ended", connection -> ThreadQueries.markEnded(connection,
                threadId, endedAt));
    }
}
