package dev.mnemo.postgres;

import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.spi.SpawnGraphStore;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The spawn graph of one tenant ({@link SpawnGraphStore}), a role of {@link PostgresMemoryStore}:
 * parent-to-child edges between threads, each {@code open} or {@code closed} as Codex stores it,
 * with the {@code spawn.*} statements of {@code state.sql}. A thread's delete drops its edges
 * through {@link #deleteEdgesOf} in the delete's own transaction.
 */
final class PostgresSpawnGraphStore implements SpawnGraphStore {

    private final StateTransactions state;

    PostgresSpawnGraphStore(StateTransactions state) {
        this.state = state;
    }

    @Override
    public void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status) {
        Objects.requireNonNull(parentThreadId, "parentThreadId");
        Objects.requireNonNull(childThreadId, "childThreadId");
        Objects.requireNonNull(status, "status");
        state.write("upsert spawn edge " + parentThreadId + " -> " + childThreadId,
                tx -> tx.update("spawn.upsert", parentThreadId, childThreadId, dbValue(status)));
    }

    @Override
    public boolean setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status) {
        Objects.requireNonNull(childThreadId, "childThreadId");
        Objects.requireNonNull(status, "status");
        return state.write("set spawn edge status of " + childThreadId,
                tx -> tx.update("spawn.setStatus", dbValue(status), childThreadId)) > 0;
    }

    @Override
    public List<String> spawnChildren(String parentThreadId, Optional<SpawnEdgeStatus> status) {
        Objects.requireNonNull(parentThreadId, "parentThreadId");
        String wanted = Objects.requireNonNull(status, "status").map(PostgresSpawnGraphStore::dbValue).orElse(null);
        return state.read("list spawn children of " + parentThreadId,
                tx -> tx.query("spawn.children", row -> row.getString(1), parentThreadId, wanted, wanted));
    }

    @Override
    public List<String> spawnDescendants(String threadId, Optional<SpawnEdgeStatus> status) {
        Objects.requireNonNull(threadId, "threadId");
        String wanted = Objects.requireNonNull(status, "status").map(PostgresSpawnGraphStore::dbValue).orElse(null);
        return state.read("list spawn descendants of " + threadId, tx -> tx.query("spawn.descendants",
                row -> row.getString(1), threadId, threadId, wanted, wanted, threadId, wanted, wanted));
    }

    @Override
    public Optional<String> spawnParent(String childThreadId) {
        Objects.requireNonNull(childThreadId, "childThreadId");
        return state.read("read spawn parent of " + childThreadId,
                tx -> tx.first("spawn.parent", row -> row.getString(1), childThreadId));
    }

    /** Drops every edge to or from {@code threadId}, inside the caller's transaction. */
    static void deleteEdgesOf(Tx tx, String threadId) throws SQLException {
        tx.update("spawn.deleteEdgesOf", threadId, threadId);
    }

    /** {@code open} or {@code closed}, as Codex stores it. */
    private static String dbValue(SpawnEdgeStatus status) {
        return status.name().toLowerCase(Locale.ROOT);
    }
}
