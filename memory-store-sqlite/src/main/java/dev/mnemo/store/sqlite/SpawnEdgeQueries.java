package dev.mnemo.store.sqlite;

import dev.mnemo.SpawnEdgeStatus;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code thread_spawn_edges} table: Codex's spawn graph, one row per child thread.
 *
 * <p>The descendants walk is one recursive query. Its cycle guard rests on the key: a child has
 * one parent, so a walk from {@code root} can only come back to a node it saw by coming back to
 * {@code root} itself; the recursion stops at any edge leading to {@code root}, and a cycle anywhere
 * in the table ends there.
 */
final class SpawnEdgeQueries {

    private static final String DESCENDANTS = """
            WITH RECURSIVE subtree(child_thread_id, depth) AS (
                SELECT child_thread_id, 1 FROM thread_spawn_edges
                WHERE parent_thread_id = ?1 AND child_thread_id <> ?1 AND (?2 IS NULL OR status = ?2)
                UNION ALL
                SELECT e.child_thread_id, s.depth + 1
                FROM thread_spawn_edges e JOIN subtree s ON e.parent_thread_id = s.child_thread_id
                WHERE e.child_thread_id <> ?1 AND (?2 IS NULL OR e.status = ?2)
            )
            SELECT child_thread_id FROM subtree ORDER BY depth ASC, child_thread_id ASC""";

    private SpawnEdgeQueries() {
    }

    /** {@code open} or {@code closed}, as Codex stores it. */
    static String dbValue(SpawnEdgeStatus status) {
        return status.name().toLowerCase(Locale.ROOT);
    }

    static void upsert(PooledConnection connection, String parent, String child, SpawnEdgeStatus status)
            throws SQLException {
        Jdbc.update(connection, "INSERT INTO thread_spawn_edges (parent_thread_id, child_thread_id, status) "
                + "VALUES (?, ?, ?) ON CONFLICT (child_thread_id) DO UPDATE SET "
                + "parent_thread_id = excluded.parent_thread_id, status = excluded.status", parent, child,
                dbValue(status));
    }

    static boolean setStatus(PooledConnection connection, String child, SpawnEdgeStatus status) throws SQLException {
        return Jdbc.update(connection, "UPDATE thread_spawn_edges SET status = ? WHERE child_thread_id = ?",
                dbValue(status), child) > 0;
    }

    static List<String> children(PooledConnection connection, String parent, Optional<SpawnEdgeStatus> status)
            throws SQLException {
        return Jdbc.query(connection, "SELECT child_thread_id FROM thread_spawn_edges WHERE parent_thread_id = ?1 "
                + "AND (?2 IS NULL OR status = ?2) ORDER BY child_thread_id", row -> row.getString(1), parent,
                status.map(SpawnEdgeQueries::dbValue).orElse(null));
    }

    static List<String> descendants(PooledConnection connection, String root, Optional<SpawnEdgeStatus> status)
            throws SQLException {
        return Jdbc.query(connection, DESCENDANTS, row -> row.getString(1), root,
                status.map(SpawnEdgeQueries::dbValue).orElse(null));
    }

    static Optional<String> parent(PooledConnection connection, String child) throws SQLException {
        return Jdbc.queryFirst(connection, "SELECT parent_thread_id FROM thread_spawn_edges WHERE child_thread_id = ?",
                row -> row.getString(1), child);
    }

    /** Deletes every edge {@code threadId} is part of, as parent or child (Codex's delete does). */
    static int deleteEdgesOf(PooledConnection connection, String threadId) throws SQLException {
        return Jdbc.update(connection,
                "DELETE FROM thread_spawn_edges WHERE parent_thread_id = ?1 OR child_thread_id = ?1", threadId);
    }
}
