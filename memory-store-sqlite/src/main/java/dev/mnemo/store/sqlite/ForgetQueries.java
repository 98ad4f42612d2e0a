package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.seconds;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** consolidated_threads and pending_forgets: what a forget needs to know beyond the kept history (V7). */
final class ForgetQueries {

    private ForgetQueries() {
    }

    /** One row per thread, keeping the earliest time. */
    static void recordConsolidated(PooledConnection connection, Collection<String> threadIds, Instant at)
            throws SQLException {
        for (String threadId : threadIds) {
            Jdbc.update(connection, "INSERT INTO consolidated_threads (thread_id, first_consolidated_at) VALUES (?, ?)"
                    + " ON CONFLICT(thread_id) DO UPDATE SET first_consolidated_at ="
                    + " min(first_consolidated_at, excluded.first_consolidated_at)", threadId, seconds(at));
        }
    }

    static Optional<Instant> firstConsolidated(PooledConnection connection, String threadId) throws SQLException {
        return Jdbc.queryFirst(connection, "SELECT first_consolidated_at FROM consolidated_threads WHERE thread_id = ?",
                row -> Instant.ofEpochSecond(row.getLong(1)), threadId);
    }

    static void addPending(PooledConnection connection, String threadId, Instant now) throws SQLException {
        Jdbc.update(connection, "INSERT INTO pending_forgets (thread_id, requested_at) VALUES (?, ?)"
                + " ON CONFLICT(thread_id) DO NOTHING", threadId, seconds(now));
    }

    static List<String> pending(PooledConnection connection) throws SQLException {
        return Jdbc.query(connection, "SELECT thread_id FROM pending_forgets ORDER BY thread_id", row -> row.getString(1));
    }

    static void complete(PooledConnection connection, Collection<String> threadIds) throws SQLException {
        for (String threadId : threadIds) {
            Jdbc.update(connection, "DELETE FROM pending_forgets WHERE thread_id = ?", threadId);
            Jdbc.update(connection, "DELETE FROM consolidated_threads WHERE thread_id = ?", threadId);
        }
    }

    /** Both tables emptied, with the rest of the memory data. */
    static void deleteAll(PooledConnection connection) throws SQLException {
        Jdbc.update(connection, "DELETE FROM pending_forgets");
        Jdbc.update(connection, "DELETE FROM consolidated_threads");
    }
}
