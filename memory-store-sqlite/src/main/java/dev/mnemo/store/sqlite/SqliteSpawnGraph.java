package dev.mnemo.store.sqlite;

import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.spi.SpawnGraphStore;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link SpawnGraphStore} role of {@link SqliteMemoryStore}: Codex's spawn graph, one
 * {@code thread_spawn_edges} row per child thread ({@link SpawnEdgeQueries} holds the SQL and the
 * recursive descendants walk). Each write is its own transaction; each listing one statement.
 */
final class SqliteSpawnGraph implements SpawnGraphStore {

    private final SqliteDatabase database;

    SqliteSpawnGraph(SqliteDatabase database) {
        this.database = database;
    }

    @Override
    public void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status) {
        Objects.requireNonNull(parentThreadId, "parentThreadId");
        Objects.requireNonNull(childThreadId, "childThreadId");
        Objects.requireNonNull(status, "status");
        database.write("upsert spawn edge " + parentThreadId + " -> " + childThreadId,
                connection -> {
                    SpawnEdgeQueries.upsert(connection, parentThreadId, childThreadId, status);
                    return null;
                });
    }

    @Override
    public boolean setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status) {
        Objects.requireNonNull(childThreadId, "childThreadId");
        Objects.requireNonNull(status, "status");
        return database.write("set spawn edge status of " + childThreadId,
                connection -> SpawnEdgeQueries.setStatus(connection, childThreadId, status));
    }

    @Override
    public List<String> spawnChildren(String parentThreadId, Optional<SpawnEdgeStatus> status) {
        return listEdges("children", parentThreadId, status, SpawnEdgeQueries::children);
    }

    @Override
    public List<String> spawnDescendants(String threadId, Optional<SpawnEdgeStatus> status) {
        return listEdges("descendants", threadId, status, SpawnEdgeQueries::descendants);
    }

    /** One spawn-graph listing below {@code threadId}. */
    @FunctionalInterface
    private interface EdgeListing {
        List<String> list(PooledConnection connection, String threadId, Optional<SpawnEdgeStatus> status)
                throws SQLException;
    }

    private List<String> listEdges(String what, String threadId, Optional<SpawnEdgeStatus> status,
            EdgeListing listing) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(status, "status");
        return database.read("list spawn " + what + " of " + threadId,
                connection -> listing.list(connection, threadId, status));
    }

    @Override
    public Optional<String> spawnParent(String childThreadId) {
        Objects.requireNonNull(childThreadId, "childThreadId");
        return database.read("read spawn parent of " + childThreadId,
                connection -> SpawnEdgeQueries.parent(connection, childThreadId));
    }
}
