package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.PHASE2;
import static dev.mnemo.store.sqlite.JobKinds.STAGE1;
import static dev.mnemo.store.sqlite.JobKinds.fromSeconds;
import static dev.mnemo.store.sqlite.JobKinds.seconds;

import dev.mnemo.MemoryStatus;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Statements over jobs of both kinds: release, clear and the status read. */
final class JobQueries {

    private static final List<String> KINDS = List.of(STAGE1, PHASE2);
    private static final List<String> STATUSES =
            List.of(JobKinds.RUNNING, JobKinds.DONE, JobKinds.ERROR, JobKinds.PENDING);

    private record StatusCount(String kind, String status, int count) {
    }

    private JobQueries() {
    }

    /**
     * Every running job of {@code workerId} becomes failed-for-retry at once: no lease, no backoff,
     * retry budget unchanged, the reason recorded.
     */
    static int release(PooledConnection connection, String workerId, String reason, Instant now) throws SQLException {
        long nowSeconds = seconds(now);
        return Jdbc.update(connection, "UPDATE jobs SET status = 'error', finished_at = ?, lease_until = NULL,"
                + " retry_at = ?, last_error = ? WHERE status = 'running' AND worker_id = ?",
                nowSeconds, nowSeconds, reason, workerId);
    }

    static void deleteMemoryJobs(PooledConnection connection) throws SQLException {
        Jdbc.update(connection, "DELETE FROM jobs WHERE kind IN (?, ?)", STAGE1, PHASE2);
    }

    /** Per kind, the number of jobs in each status; every known kind and status is present. */
    static Map<String, Map<String, Integer>> countsByKind(PooledConnection connection) throws SQLException {
        Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
        for (String kind : KINDS) {
            Map<String, Integer> byStatus = new LinkedHashMap<>();
            for (String status : STATUSES) {
                byStatus.put(status, 0);
            }
            counts.put(kind, byStatus);
        }
        // One row per (kind, status): GROUP BY makes the pairs unique, so each count is put, not added.
        for (StatusCount row : Jdbc.query(connection, "SELECT kind, status, COUNT(*) FROM jobs GROUP BY kind, status",
                row -> new StatusCount(row.getString(1), row.getString(2), row.getInt(3)))) {
            counts.computeIfAbsent(row.kind(), kind -> new LinkedHashMap<>()).put(row.status(), row.count());
        }
        for (Map.Entry<String, Map<String, Integer>> kind : counts.entrySet()) {
            kind.setValue(Map.copyOf(kind.getValue()));
        }
        return counts;
    }

    /** Running jobs with a lease, soonest expiry first (an expired one is shown until someone takes it over). */
    static List<MemoryStatus.Lease> runningLeases(PooledConnection connection) throws SQLException {
        return Jdbc.query(connection, "SELECT kind, job_key, COALESCE(worker_id, ''), lease_until FROM jobs"
                + " WHERE status = 'running' AND lease_until IS NOT NULL ORDER BY lease_until, kind, job_key",
                row -> new MemoryStatus.Lease(row.getString(1), row.getString(2), row.getString(3),
                        fromSeconds(row.getLong(4))));
    }
}
