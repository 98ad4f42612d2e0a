-- The ThreadLogStore's statements: memory-store-sqlite's logs.sqlite queries over the tenant-scoped
-- view of V9. The query of PostgresThreadLogStore#query is assembled from its filters in Java.

-- name: logs.lock
-- Serialises the log writers of one tenant (several servers may write its logs) until the
-- transaction ends, as logs.sqlite's single writer does, so a partition's caps hold after every
-- batch. Other tenants never wait on it; same key space as lock.claims. Bind: nothing.
SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/thread_logs/' || current_setting('mnemo.tenant'), 0))

-- name: logs.insert
INSERT INTO thread_logs (ts, ts_nanos, level, target, message, thread_id, estimated_bytes) VALUES (?, ?, ?, ?, ?, ?, ?)

-- name: logs.overCaps
-- Of the threads a batch touched, those now past either cap, with their rows and estimated bytes
-- (from the index alone). Bind: the threads (text[]), row cap, byte cap.
SELECT thread_id, COALESCE(SUM(estimated_bytes), 0) FROM thread_logs WHERE thread_id = ANY(?)
GROUP BY thread_id HAVING COUNT(*) > ? OR COALESCE(SUM(estimated_bytes), 0) > ?

-- name: logs.pruneRows
-- Past the row cap only: the rows after the newest row cap, found through the index.
-- Bind: thread, row cap.
DELETE FROM thread_logs WHERE id IN (
    SELECT id FROM thread_logs WHERE thread_id = ? ORDER BY ts DESC, ts_nanos DESC, id DESC OFFSET ?)

-- name: logs.prune
-- Every row past the newest row cap, or past the byte cap of newest-first cumulative size (so a
-- single row over it goes at once). Bind: thread, row cap, byte cap.
DELETE FROM thread_logs WHERE id IN (
    SELECT id FROM (
        SELECT id,
            ROW_NUMBER() OVER (ORDER BY ts DESC, ts_nanos DESC, id DESC) AS newest_rank,
            SUM(estimated_bytes) OVER (ORDER BY ts DESC, ts_nanos DESC, id DESC
                ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS newest_bytes
        FROM thread_logs WHERE thread_id = ?) ranked
    WHERE newest_rank > ? OR newest_bytes > ?)

-- name: logs.deleteOlderThan
DELETE FROM thread_logs WHERE ts < ?

-- name: logs.deleteThread
DELETE FROM thread_logs WHERE thread_id = ?
