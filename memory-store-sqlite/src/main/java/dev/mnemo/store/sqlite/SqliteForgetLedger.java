package dev.mnemo.store.sqlite;

import dev.mnemo.spi.ForgetStore;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link ForgetStore} role of {@link SqliteMemoryStore}: which consolidations used a thread
 * ({@code consolidated_threads}) and which forgets the workspace has still to complete
 * ({@code pending_forgets}), with their SQL in {@link ForgetQueries}. Each call is one statement or
 * one write transaction; an empty batch touches nothing.
 */
final class SqliteForgetLedger implements ForgetStore {

    private final SqliteDatabase database;

    SqliteForgetLedger(SqliteDatabase database) {
        this.database = database;
    }

    @Override
    public void recordConsolidatedThreads(Collection<String> threadIds, Instant at) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        Objects.requireNonNull(at, "at");
        if (ids.isEmpty()) {
            return;
        }
        database.write("record consolidated threads", connection -> {
            ForgetQueries.recordConsolidated(connection, ids, at);
            return null;
        });
    }

    @Override
    public Optional<Instant> firstConsolidated(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return database.read("read the first consolidation of thread " + threadId,
                connection -> ForgetQueries.firstConsolidated(connection, threadId));
    }

    @Override
    public void addPendingForget(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        database.write("record a pending forget of thread " + threadId, connection -> {
            ForgetQueries.addPending(connection, threadId, now);
            return null;
        });
    }

    @Override
    public Set<String> pendingForgets() {
        return Set.copyOf(database.read("read pending forgets", ForgetQueries::pending));
    }

    @Override
    public void completeForgets(Collection<String> threadIds) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        if (ids.isEmpty()) {
            return;
        }
        database.write("complete forgets", connection -> {
            ForgetQueries.complete(connection, ids);
            return null;
        });
    }
}
