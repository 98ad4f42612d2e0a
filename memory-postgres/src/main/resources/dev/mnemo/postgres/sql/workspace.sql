-- The MemoryWorkspace's statements, over the tenant-scoped views of V3 and V5 (and V1's jobs for
-- the Phase 2 lock check).

-- name: workspace.versions
-- The files' version and the notes' version: one primary-key read tells a server whether either moved.
SELECT version, notes_version FROM workspaces

-- name: workspace.changes
-- What a server needs to catch up, in one statement (so one snapshot, even at read committed): the
-- versions row (part 0); the baseline files (part 1) only when the files' version is not the bound
-- local one; the pending notes (part 2) only when asked for notes and either version moved or a
-- local note waits to be stored. A server that is up to date reads the versions row alone.
SELECT 0 AS part, NULL AS path, NULL::bytea AS content, version, notes_version FROM workspaces
UNION ALL
SELECT 1, path, content, NULL, NULL FROM workspace_files WHERE (SELECT version FROM workspaces) <> ?
UNION ALL
SELECT 2, path, content, NULL, NULL FROM pending_notes
WHERE ? AND ((SELECT version FROM workspaces) <> ? OR (SELECT notes_version FROM workspaces) <> ? OR ?)

-- name: workspace.lock
SELECT version FROM workspaces FOR UPDATE

-- name: workspace.create
INSERT INTO workspaces (version) VALUES (1) ON CONFLICT (tenant_id) DO NOTHING

-- name: workspace.bump
UPDATE workspaces SET version = version + 1 RETURNING version

-- name: workspace.bumpNotes
UPDATE workspaces SET notes_version = notes_version + 1 RETURNING notes_version

-- name: files.all
SELECT path, content FROM workspace_files

-- name: files.deleteAll
DELETE FROM workspace_files

-- name: files.insert
INSERT INTO workspace_files (path, content) VALUES (?, ?)

-- name: notes.all
SELECT path, content FROM pending_notes

-- name: notes.insert
-- A note is never overwritten: a second one with the same path inserts nothing.
INSERT INTO pending_notes (path, content, added_at) VALUES (?, ?, ?) ON CONFLICT (tenant_id, path) DO NOTHING

-- name: notes.content
SELECT content FROM pending_notes WHERE path = ?

-- name: notes.delete
DELETE FROM pending_notes WHERE path = ANY (?)

-- name: notes.deleteAll
DELETE FROM pending_notes

-- name: history.all
SELECT seq, id, at_seconds, at_nanos, model, input_tokens, cached_input_tokens, output_tokens, reasoning_tokens,
    thread_ids, source_updated_at
FROM consolidations ORDER BY seq DESC

-- name: history.insert
INSERT INTO consolidations (id, at_seconds, at_nanos, model, input_tokens, cached_input_tokens, output_tokens,
        reasoning_tokens, thread_ids, source_updated_at, restores)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING seq

-- name: history.insertFile
INSERT INTO consolidation_files (seq, path, content) VALUES (?, ?, ?)

-- name: history.files
SELECT path, content FROM consolidation_files WHERE seq = ?

-- name: history.trim
-- Keeps the newest entries (the bind): older ones and their files go.
DELETE FROM consolidations WHERE seq NOT IN (SELECT seq FROM consolidations ORDER BY seq DESC LIMIT ?)

-- name: history.deleteAll
DELETE FROM consolidations

-- name: history.deleteFrom
-- Drops an entry and every newer one (their files go with them). Binds: the entry's seq.
DELETE FROM consolidations WHERE seq >= ?

-- name: phase2.runningToken
-- The Phase 2 lock's current owner, locked until the transaction ends so it cannot change under a commit.
SELECT ownership_token FROM jobs
WHERE kind = 'memory_consolidate_global' AND job_key = 'global' AND status = 'running'
FOR UPDATE
