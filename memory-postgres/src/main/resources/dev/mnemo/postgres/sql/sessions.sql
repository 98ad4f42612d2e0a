-- The SessionStore's statements, over the tenant-scoped view of V2.

-- name: rollout.append
INSERT INTO rollout_lines (thread_id, line) VALUES (?, ?)

-- name: rollout.exists
SELECT EXISTS (SELECT 1 FROM rollout_lines WHERE thread_id = ?)

-- name: rollout.lines
SELECT line FROM rollout_lines WHERE thread_id = ? ORDER BY seq

-- name: rollout.delete
DELETE FROM rollout_lines WHERE thread_id = ?
