-- Mnemo, forgetting that survives trimmed history and failed runs (issue 36).
-- consolidated_threads: every thread a successful consolidation used, with the time of the first
-- one, so a forget knows the memory folder may hold a thread's text even when the kept history no
-- longer names it (history_retention = 0, or trimmed). Not tied to threads: a deleted thread's row
-- stays until its forget is complete.
CREATE TABLE consolidated_threads (
    thread_id             TEXT    NOT NULL PRIMARY KEY,
    first_consolidated_at INTEGER NOT NULL
);

-- Memories selected by the last consolidation before this version: when they were first used is
-- unknown, so epoch 0 (older than any kept history; their forget restores an empty folder).
INSERT OR IGNORE INTO consolidated_threads (thread_id, first_consolidated_at)
    SELECT thread_id, 0 FROM stage1_outputs WHERE selected_for_phase2 = 1;

-- pending_forgets: forgets the workspace has not completed yet (the Phase 2 lock was held, the run
-- holding it failed or its process died). Every Phase 2 run completes them first and last.
CREATE TABLE pending_forgets (
    thread_id    TEXT    NOT NULL PRIMARY KEY,
    requested_at INTEGER NOT NULL
);

-- The time of the last successful consolidation, kept when a later run fails or a forget re-opens
-- the lock (finished_at is then the failure's time).
ALTER TABLE jobs ADD COLUMN last_success_at INTEGER;
UPDATE jobs SET last_success_at = finished_at
    WHERE kind = 'memory_consolidate_global' AND status = 'done' AND last_error IS NULL;
