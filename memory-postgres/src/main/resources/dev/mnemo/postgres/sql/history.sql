-- The HistoryStore's statements: the lines of Codex's history.jsonl over the tenant-scoped view of
-- V9, the id as each entry's offset.

-- name: history.lock
-- Serialises the appends (and trims) of one tenant across servers until the transaction ends, as
-- the exclusive lock on history.jsonl does: ids then follow the order of the appends, and a trim
-- never races another append. Other tenants never wait on it; same key space as lock.claims.
SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/message_history/' || current_setting('mnemo.tenant'), 0))

-- name: history.append
INSERT INTO message_history (session_id, ts, text, line_bytes) VALUES (?, ?, ?, ?) RETURNING id

-- name: history.totalBytes
SELECT COALESCE(SUM(line_bytes), 0) FROM message_history

-- name: history.trim
-- The oldest whole lines beyond the target: kept are the newest lines whose newest-first cumulative
-- size is within it (the newest always is: the target is at least its size). Bind: the target.
DELETE FROM message_history WHERE id IN (
    SELECT id FROM (
        SELECT id, SUM(line_bytes) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
            AS newest_bytes
        FROM message_history) ranked
    WHERE newest_bytes > ?)

-- name: history.recent
SELECT id, session_id, ts, text FROM message_history ORDER BY id DESC LIMIT ?

-- name: history.search
-- Case-insensitive contains. Bind: the text, the limit.
SELECT id, session_id, ts, text FROM message_history WHERE strpos(lower(text), lower(?)) > 0
ORDER BY id DESC LIMIT ?

-- name: history.entry
SELECT id, session_id, ts, text FROM message_history WHERE id = ?

-- name: history.removeSession
DELETE FROM message_history WHERE session_id = ?
