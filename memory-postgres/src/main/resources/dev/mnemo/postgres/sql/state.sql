-- The MemoryStore's statements for PostgreSQL: memory-store-sqlite's queries, statement for
-- statement, over the tenant-scoped views of V1 (so no statement names a tenant). A section starts
-- with "-- name: <key>"; PostgresBackend loads them once. Bind order is the order of the "?".

-- ---- threads -------------------------------------------------------------------------------------

-- name: thread.upsert
-- Keeps the stricter memory mode (polluted over disabled over enabled) in the same statement: a
-- rollout scan or a recorder that read the row before a concurrent disable or pollution must not
-- make its rollout extractable again. Every other column, the project included, is the one given.
INSERT INTO threads (id, rollout_path, created_at_ms, updated_at_ms, source, cwd, git_branch, preview, archived,
        memory_mode, project)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (tenant_id, id) DO UPDATE SET rollout_path = excluded.rollout_path,
    created_at_ms = excluded.created_at_ms, updated_at_ms = excluded.updated_at_ms,
    source = excluded.source, cwd = excluded.cwd, git_branch = excluded.git_branch,
    preview = excluded.preview, archived = excluded.archived, project = excluded.project,
    memory_mode = CASE
        WHEN 'polluted' IN (threads.memory_mode, excluded.memory_mode) THEN 'polluted'
        WHEN 'disabled' IN (threads.memory_mode, excluded.memory_mode) THEN 'disabled'
        ELSE 'enabled' END
RETURNING memory_mode

-- name: thread.find
SELECT id, rollout_path, created_at_ms, updated_at_ms, source, cwd, git_branch, preview, archived, memory_mode,
    project, ended_at_ms
FROM threads WHERE id = ?

-- name: thread.all
SELECT id, rollout_path, created_at_ms, updated_at_ms, source, cwd, git_branch, preview, archived, memory_mode,
    project, ended_at_ms
FROM threads ORDER BY updated_at_ms DESC, id DESC

-- name: thread.markEnded
-- The application ended the conversation; a later end already stored is kept (GREATEST skips NULL).
UPDATE threads SET ended_at_ms = GREATEST(ended_at_ms, ?) WHERE id = ?

-- name: thread.setMode
UPDATE threads SET memory_mode = ? WHERE id = ?

-- name: thread.markPolluted
UPDATE threads SET memory_mode = 'polluted' WHERE id = ? AND memory_mode != 'polluted'

-- name: thread.delete
DELETE FROM threads WHERE id = ?

-- name: spawn.upsert
INSERT INTO thread_spawn_edges (parent_thread_id, child_thread_id, status) VALUES (?, ?, ?)
ON CONFLICT (tenant_id, child_thread_id) DO UPDATE SET parent_thread_id = excluded.parent_thread_id,
    status = excluded.status

-- name: spawn.setStatus
UPDATE thread_spawn_edges SET status = ? WHERE child_thread_id = ?

-- name: spawn.children
-- Bind: parent, status (NULL for any), status again.
SELECT child_thread_id FROM thread_spawn_edges
WHERE parent_thread_id = ? AND (CAST(? AS TEXT) IS NULL OR status = ?)
ORDER BY child_thread_id COLLATE "C"

-- name: spawn.descendants
-- Breadth first, by depth then id; the filter applies to every edge walked. A child has one parent,
-- so a walk can only meet a node twice by coming back to the root: no edge into the root is walked.
-- Bind: root, root, status, status, root, status, status.
WITH RECURSIVE subtree(child_thread_id, depth) AS (
    SELECT child_thread_id, 1 FROM thread_spawn_edges
    WHERE parent_thread_id = ? AND child_thread_id <> ? AND (CAST(? AS TEXT) IS NULL OR status = ?)
    UNION ALL
    SELECT e.child_thread_id, s.depth + 1
    FROM thread_spawn_edges e JOIN subtree s ON e.parent_thread_id = s.child_thread_id
    WHERE e.child_thread_id <> ? AND (CAST(? AS TEXT) IS NULL OR e.status = ?)
)
SELECT child_thread_id FROM subtree ORDER BY depth ASC, child_thread_id COLLATE "C" ASC

-- name: spawn.parent
SELECT parent_thread_id FROM thread_spawn_edges WHERE child_thread_id = ?

-- name: spawn.deleteEdgesOf
DELETE FROM thread_spawn_edges WHERE parent_thread_id = ? OR child_thread_id = ?

-- name: thread.countsByMode
SELECT memory_mode, COUNT(*) FROM threads GROUP BY memory_mode

-- name: thread.claimCandidates
-- Write-sheet §3.5 step 2: unarchived, previewed, allowed source (a text array), enabled, not the
-- current thread, inside the age window and past the idle gate (Stage1ClaimParams.passesIdleGate:
-- idle long enough, or ended at or after the last update; the age bound stays on the index), newest
-- first, at most scanLimit rows; up_to_date is Codex's stage1_source_needs_update negated, in whole seconds (floor division
-- in bigint, as SQLite's query does it: a numeric floor() costs a fifth of the scan).
SELECT id, rollout_path, created_at_ms, updated_at_ms, source, cwd, git_branch, preview, archived, memory_mode,
    project, ended_at_ms,
    (EXISTS (SELECT 1 FROM stage1_outputs so WHERE so.thread_id = threads.id
        AND so.source_updated_at >= (threads.updated_at_ms - ((threads.updated_at_ms % 1000) + 1000) % 1000) / 1000)
     OR EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'memory_stage1' AND j.job_key = threads.id
        AND j.last_success_watermark >= (threads.updated_at_ms - ((threads.updated_at_ms % 1000) + 1000) % 1000) / 1000)) AS up_to_date
FROM threads
WHERE archived = 0 AND preview <> '' AND source = ANY (?) AND memory_mode = 'enabled' AND id != ?
    AND updated_at_ms >= ? AND (updated_at_ms <= ? OR ended_at_ms >= updated_at_ms)
ORDER BY updated_at_ms DESC LIMIT ?

-- name: thread.upToDateIds
-- Threads whose stored memory or last successful extraction covers their rollout version.
SELECT id FROM threads
WHERE EXISTS (SELECT 1 FROM stage1_outputs so WHERE so.thread_id = threads.id
        AND so.source_updated_at >= (threads.updated_at_ms - ((threads.updated_at_ms % 1000) + 1000) % 1000) / 1000)
    OR EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'memory_stage1' AND j.job_key = threads.id
        AND j.last_success_watermark >= (threads.updated_at_ms - ((threads.updated_at_ms % 1000) + 1000) % 1000) / 1000)

-- ---- Phase 1 jobs --------------------------------------------------------------------------------

-- name: stage1.isUpToDate
SELECT 1 FROM stage1_outputs WHERE thread_id = ? AND source_updated_at >= ?
UNION ALL SELECT 1 FROM jobs WHERE kind = 'memory_stage1' AND job_key = ? AND last_success_watermark >= ?

-- name: stage1.claim
-- Claims the job when fewer than max_running live leases exist; an existing row is taken over only
-- when (a) no live lease holds it, (b) its backoff is over or the rollout is newer, (c) it has
-- retries left or the rollout is newer, and (d) the cap still allows it. A newer rollout restores
-- the retry budget. Binds: thread, worker, token, now, lease_until, retries, watermark, now, cap, cap.
-- Unlike SQLite, writers are not serialised: a completion may commit while this statement waits for
-- the row, and PostgreSQL then re-checks the WHERE on the row as committed. So the WHERE also
-- refuses a row whose last success already covers this version (what the caller's up-to-date
-- check saw before the wait); under SQLite's serialisation that condition always holds there.
INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until,
        retry_at, retry_remaining, last_error, input_watermark, last_success_watermark)
SELECT 'memory_stage1', ?, 'running', ?, ?, ?, NULL, ?, NULL, ?, NULL, ?, NULL
WHERE (SELECT COUNT(*) FROM jobs WHERE kind = 'memory_stage1' AND status = 'running'
        AND lease_until IS NOT NULL AND lease_until > ?) < ?
ON CONFLICT (tenant_id, kind, job_key) DO UPDATE SET status = 'running', worker_id = excluded.worker_id,
    ownership_token = excluded.ownership_token, started_at = excluded.started_at, finished_at = NULL,
    lease_until = excluded.lease_until, retry_at = NULL,
    retry_remaining = CASE WHEN excluded.input_watermark > COALESCE(jobs.input_watermark, -1)
        THEN excluded.retry_remaining ELSE jobs.retry_remaining END,
    last_error = NULL, input_watermark = excluded.input_watermark
WHERE (jobs.status != 'running' OR jobs.lease_until IS NULL OR jobs.lease_until <= excluded.started_at)
    AND (jobs.retry_at IS NULL OR jobs.retry_at <= excluded.started_at
        OR excluded.input_watermark > COALESCE(jobs.input_watermark, -1))
    AND (jobs.retry_remaining > 0 OR excluded.input_watermark > COALESCE(jobs.input_watermark, -1))
    AND COALESCE(jobs.last_success_watermark, -1) < excluded.input_watermark
    AND (SELECT COUNT(*) FROM jobs AS other WHERE other.kind = excluded.kind
        AND other.status = 'running' AND other.lease_until IS NOT NULL
        AND other.lease_until > excluded.started_at AND other.job_key != excluded.job_key) < ?

-- name: stage1.retryState
SELECT retry_remaining, retry_at FROM jobs WHERE kind = 'memory_stage1' AND job_key = ?

-- name: stage1.markDone
UPDATE jobs SET status = 'done', finished_at = ?, lease_until = NULL, last_error = NULL,
    last_success_watermark = input_watermark
WHERE kind = 'memory_stage1' AND job_key = ? AND status = 'running' AND ownership_token = ?

-- name: stage1.markFailed
UPDATE jobs SET status = 'error', finished_at = ?, lease_until = NULL, retry_at = ?,
    retry_remaining = retry_remaining - 1, last_error = ?
WHERE kind = 'memory_stage1' AND job_key = ? AND status = 'running' AND ownership_token = ?

-- name: stage1.releaseAfterModelFailure
-- An owned job whose model call failed: an error with a backoff, retries untouched.
-- Binds: now, retry_at, reason, thread, token.
UPDATE jobs SET status = 'error', finished_at = ?, lease_until = NULL, retry_at = ?, last_error = ?
WHERE kind = 'memory_stage1' AND job_key = ? AND status = 'running' AND ownership_token = ?

-- name: stage1.defer
-- An owned job not run (no room in the day's extraction budget): pending again, claimable from
-- retry_at, retries untouched, no model failure. Binds: now, retry_at, reason, thread, token.
UPDATE jobs SET status = 'pending', finished_at = ?, lease_until = NULL, retry_at = ?, last_error = ?
WHERE kind = 'memory_stage1' AND job_key = ? AND status = 'running' AND ownership_token = ?

-- name: extractionTokens.reserve
-- Adds a reservation when the day's ledger plus it stays within the limit, in one statement: a new
-- day's row is guarded by the first WHERE; an existing row is locked by ON CONFLICT and its newest
-- version checked by the second, so concurrent reservations of the tenant never pass the limit
-- together. Binds: day, tokens, now, tokens, limit, limit.
INSERT INTO extraction_tokens (day, tokens, updated_at) SELECT ?, ?, ?
WHERE ? <= ?
ON CONFLICT (tenant_id, day) DO UPDATE SET tokens = extraction_tokens.tokens + excluded.tokens,
    updated_at = excluded.updated_at
WHERE extraction_tokens.tokens + excluded.tokens <= ?

-- name: extractionTokens.settle
-- Adds a signed correction (used - reserved), never below zero. Binds: day, correction clamped at 0,
-- now, correction.
INSERT INTO extraction_tokens (day, tokens, updated_at) VALUES (?, ?, ?)
ON CONFLICT (tenant_id, day) DO UPDATE SET tokens = GREATEST(0, extraction_tokens.tokens + ?),
    updated_at = excluded.updated_at

-- name: extractionTokens.spent
SELECT tokens FROM extraction_tokens WHERE day = ?

-- name: modelFailure.record
INSERT INTO model_failures (reason, message, failed_at) VALUES (?, ?, ?)
ON CONFLICT (tenant_id) DO UPDATE SET reason = excluded.reason, message = excluded.message,
    failed_at = excluded.failed_at

-- name: modelFailure.clear
DELETE FROM model_failures

-- name: modelFailure.last
SELECT reason, message, failed_at FROM model_failures

-- name: stage1.inputWatermark
SELECT input_watermark FROM jobs WHERE kind = 'memory_stage1' AND job_key = ?

-- name: stage1.delete
DELETE FROM jobs WHERE kind = 'memory_stage1' AND job_key = ?

-- name: stage1.jobRows
SELECT job_key, status, lease_until, retry_at, retry_remaining, input_watermark FROM jobs
WHERE kind = 'memory_stage1'

-- ---- dead Phase 1 jobs ---------------------------------------------------------------------------
-- Dead: the last attempt failed, no retry is left, and the enabled thread's rollout version (whole
-- seconds, as the claim compares it) is not newer than the one tried, so stage1.claim never takes
-- the row again. memory-store-sqlite's DeadJobQueries, statement for statement.

-- name: stage1.dead
-- Most recent death first. Binds: limit.
SELECT job_key, COALESCE(last_error, ''), COALESCE(finished_at, 0), retry_remaining FROM jobs
WHERE kind = 'memory_stage1' AND status = 'error' AND retry_remaining <= 0 AND input_watermark IS NOT NULL
    AND EXISTS (SELECT 1 FROM threads t WHERE t.id = jobs.job_key AND t.memory_mode = 'enabled'
        AND (t.updated_at_ms - ((t.updated_at_ms % 1000) + 1000) % 1000) / 1000 <= jobs.input_watermark)
ORDER BY finished_at DESC, job_key LIMIT ?

-- name: stage1.deadOne
-- Binds: thread.
SELECT job_key, COALESCE(last_error, ''), COALESCE(finished_at, 0), retry_remaining FROM jobs
WHERE kind = 'memory_stage1' AND status = 'error' AND retry_remaining <= 0 AND input_watermark IS NOT NULL
    AND EXISTS (SELECT 1 FROM threads t WHERE t.id = jobs.job_key AND t.memory_mode = 'enabled'
        AND (t.updated_at_ms - ((t.updated_at_ms % 1000) + 1000) % 1000) / 1000 <= jobs.input_watermark)
    AND jobs.job_key = ?

-- name: stage1.deadCount
SELECT COUNT(*) FROM jobs
WHERE kind = 'memory_stage1' AND status = 'error' AND retry_remaining <= 0 AND input_watermark IS NOT NULL
    AND EXISTS (SELECT 1 FROM threads t WHERE t.id = jobs.job_key AND t.memory_mode = 'enabled'
        AND (t.updated_at_ms - ((t.updated_at_ms % 1000) + 1000) % 1000) / 1000 <= jobs.input_watermark)

-- name: stage1.retry
-- Back to pending, claimable at once with a full budget, when the last attempt failed and it spent a
-- retry or still waits out a delay. Binds: retries, thread, retries, now.
UPDATE jobs SET status = 'pending', retry_at = NULL, retry_remaining = ?
WHERE kind = 'memory_stage1' AND job_key = ? AND status = 'error'
    AND (retry_remaining < ? OR (retry_at IS NOT NULL AND retry_at > ?))

-- name: stage1.retryDead
-- Binds: retries.
UPDATE jobs SET status = 'pending', retry_at = NULL, retry_remaining = ?
WHERE kind = 'memory_stage1' AND status = 'error' AND retry_remaining <= 0 AND input_watermark IS NOT NULL
    AND EXISTS (SELECT 1 FROM threads t WHERE t.id = jobs.job_key AND t.memory_mode = 'enabled'
        AND (t.updated_at_ms - ((t.updated_at_ms % 1000) + 1000) % 1000) / 1000 <= jobs.input_watermark)

-- ---- Phase 2 job (the singleton row) ---------------------------------------------------------------

-- name: phase2.enqueue
-- Queues a consolidation; the input watermark only moves forward. Binds: retries, watermark.
INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until,
        retry_at, retry_remaining, last_error, input_watermark, last_success_watermark)
VALUES ('memory_consolidate_global', 'global', 'pending', NULL, NULL, NULL, NULL, NULL, NULL, ?, NULL, ?, 0)
ON CONFLICT (tenant_id, kind, job_key) DO UPDATE SET
    status = CASE WHEN jobs.status = 'running' THEN 'running' ELSE 'pending' END,
    retry_at = CASE WHEN jobs.status = 'running' THEN jobs.retry_at ELSE NULL END,
    retry_remaining = GREATEST(jobs.retry_remaining, excluded.retry_remaining),
    input_watermark = CASE WHEN excluded.input_watermark > COALESCE(jobs.input_watermark, 0)
        THEN excluded.input_watermark ELSE COALESCE(jobs.input_watermark, 0) + 1 END

-- name: phase2.row
SELECT status, lease_until, retry_at, finished_at, last_error, input_watermark FROM jobs
WHERE kind = 'memory_consolidate_global' AND job_key = 'global'

-- name: phase2.ensureRow
-- The row a claim decides on, inserted pending when missing. A Phase 1 completion on another server
-- may insert it at the same moment: then this waits for it and does nothing. Binds: retries.
INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until,
        retry_at, retry_remaining, last_error, input_watermark, last_success_watermark)
VALUES ('memory_consolidate_global', 'global', 'pending', NULL, NULL, NULL, NULL, NULL, NULL, ?, NULL, 0, 0)
ON CONFLICT (tenant_id, kind, job_key) DO NOTHING

-- name: phase2.rowForUpdate
-- The row a claim decides on, locked until the claim's transaction ends (a completion waits).
SELECT status, lease_until, retry_at, finished_at, last_error, input_watermark FROM jobs
WHERE kind = 'memory_consolidate_global' AND job_key = 'global'
FOR UPDATE

-- name: phase2.takeOver
-- Takes the lock over while the row is still the one Phase2ClaimPolicy decided on (it is locked,
-- so it is; the guard makes the update say so itself). Binds: worker, token, now, lease_until, then
-- the status, lease_until, retry_at, finished_at and last_error that were read.
UPDATE jobs SET status = 'running', worker_id = ?, ownership_token = ?, started_at = ?, finished_at = NULL,
    lease_until = ?, retry_at = NULL, last_error = NULL
WHERE kind = 'memory_consolidate_global' AND job_key = 'global'
    AND status = ? AND lease_until IS NOT DISTINCT FROM ?::bigint AND retry_at IS NOT DISTINCT FROM ?::bigint
    AND finished_at IS NOT DISTINCT FROM ?::bigint AND last_error IS NOT DISTINCT FROM ?::text

-- name: phase2.heartbeat
UPDATE jobs SET lease_until = ?
WHERE kind = 'memory_consolidate_global' AND job_key = 'global' AND status = 'running' AND ownership_token = ?

-- name: phase2.markSucceeded
UPDATE jobs SET status = 'done', finished_at = ?, last_success_at = ?, lease_until = NULL, last_error = NULL,
    last_success_watermark = GREATEST(COALESCE(last_success_watermark, 0), ?)
WHERE kind = 'memory_consolidate_global' AND job_key = 'global' AND status = 'running' AND ownership_token = ?

-- name: phase2.markFailed
UPDATE jobs SET status = 'error', finished_at = ?, lease_until = NULL, retry_at = ?,
    retry_remaining = GREATEST(retry_remaining - 1, 0), last_error = ?
WHERE kind = 'memory_consolidate_global' AND job_key = 'global' AND status = 'running' AND ownership_token = ?

-- name: phase2.markFailedIfUnowned
UPDATE jobs SET status = 'error', finished_at = ?, lease_until = NULL, retry_at = ?,
    retry_remaining = GREATEST(retry_remaining - 1, 0), last_error = ?
WHERE kind = 'memory_consolidate_global' AND job_key = 'global' AND status = 'running'
    AND (ownership_token = ? OR ownership_token IS NULL)

-- ---- jobs of both kinds --------------------------------------------------------------------------

-- name: jobs.release
-- Every running job of a worker becomes failed-for-retry at once: no lease, no backoff, retry
-- budget unchanged, the reason recorded. Binds: now, now, reason, worker.
UPDATE jobs SET status = 'error', finished_at = ?, lease_until = NULL, retry_at = ?, last_error = ?
WHERE status = 'running' AND worker_id = ?

-- name: jobs.deleteMemoryJobs
DELETE FROM jobs WHERE kind IN ('memory_stage1', 'memory_consolidate_global')

-- name: jobs.countsByKind
SELECT kind, status, COUNT(*) FROM jobs GROUP BY kind, status

-- name: jobs.runningLeases
SELECT kind, job_key, COALESCE(worker_id, ''), lease_until FROM jobs
WHERE status = 'running' AND lease_until IS NOT NULL ORDER BY lease_until, kind, job_key

-- ---- stage1_outputs ------------------------------------------------------------------------------

-- name: output.find
SELECT so.thread_id, so.source_updated_at, so.raw_memory, so.rollout_summary, so.rollout_slug, so.generated_at,
    so.usage_count, so.last_usage, so.selected_for_phase2, so.selected_for_phase2_source_updated_at,
    t.rollout_path, t.cwd, t.git_branch, so.project
FROM stage1_outputs so JOIN threads t ON t.id = so.thread_id
WHERE so.thread_id = ?

-- name: output.upsert
-- Writes a memory unless a newer version is stored or the thread is polluted (it may have been
-- polluted while the job ran), with the project the thread row has now: the project the memory was
-- extracted under, kept when the thread moves later, and awaiting approval or not as given (a new
-- version of an approved memory may wait again). Usage and selection columns stay. Binds: thread,
-- version, raw, summary, slug, generated_at, awaiting_approval (0 or 1), thread.
INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory, rollout_summary, rollout_slug, generated_at,
        awaiting_approval, project)
SELECT ?, ?, ?, ?, ?, ?, ?, t.project FROM threads t WHERE t.id = ? AND t.memory_mode != 'polluted'
ON CONFLICT (tenant_id, thread_id) DO UPDATE SET source_updated_at = excluded.source_updated_at,
    raw_memory = excluded.raw_memory, rollout_summary = excluded.rollout_summary,
    rollout_slug = excluded.rollout_slug, generated_at = excluded.generated_at,
    awaiting_approval = excluded.awaiting_approval, project = excluded.project
WHERE excluded.source_updated_at >= stage1_outputs.source_updated_at

-- name: output.awaitingApproval
-- The approval queue, whatever the thread's mode, oldest first (V7's partial index).
SELECT so.thread_id, so.source_updated_at, so.raw_memory, so.rollout_summary, so.rollout_slug, so.generated_at,
    so.usage_count, so.last_usage, so.selected_for_phase2, so.selected_for_phase2_source_updated_at,
    t.rollout_path, t.cwd, t.git_branch, so.project
FROM stage1_outputs so JOIN threads t ON t.id = so.thread_id
WHERE so.awaiting_approval != 0
ORDER BY so.generated_at ASC, so.thread_id ASC

-- name: output.approve
-- Approves exactly that version, if it still awaits approval. Binds: thread, version.
UPDATE stage1_outputs SET awaiting_approval = 0
WHERE thread_id = ? AND source_updated_at = ? AND awaiting_approval != 0

-- name: output.delete
-- Returns whether the deleted memory was in the last consolidation.
DELETE FROM stage1_outputs WHERE thread_id = ? RETURNING selected_for_phase2

-- name: output.deleteAll
DELETE FROM stage1_outputs

-- name: output.count
SELECT COUNT(*) FROM stage1_outputs

-- name: output.countUnused
-- Approved memories of enabled threads outside the Phase 2 selection's unused window (one awaiting
-- approval is left out for that, not for being unused). Binds: cutoff.
SELECT COUNT(*) FROM stage1_outputs so JOIN threads t ON t.id = so.thread_id
WHERE t.memory_mode = 'enabled' AND so.awaiting_approval = 0 AND (length(trim(so.raw_memory)) > 0 OR length(trim(so.rollout_summary)) > 0)
    AND COALESCE(so.last_usage, so.source_updated_at) < ?

-- name: output.listForGlobal
-- Codex's list for global: non-empty, approved memories of enabled threads, newest first. Binds: limit.
SELECT so.thread_id, so.source_updated_at, so.raw_memory, so.rollout_summary, so.rollout_slug, so.generated_at,
    so.usage_count, so.last_usage, so.selected_for_phase2, so.selected_for_phase2_source_updated_at,
    t.rollout_path, t.cwd, t.git_branch, so.project
FROM stage1_outputs so JOIN threads t ON t.id = so.thread_id
WHERE t.memory_mode = 'enabled' AND so.awaiting_approval = 0 AND (length(trim(so.raw_memory)) > 0 OR length(trim(so.rollout_summary)) > 0)
ORDER BY so.source_updated_at DESC, so.thread_id DESC LIMIT ?

-- name: output.phase2Selection
-- Write-sheet §5.3 as one statement, hence one snapshot, over approved memories; the caller sorts
-- by thread id. Binds: cutoff, cutoff, limit.
SELECT so.thread_id, so.source_updated_at, so.raw_memory, so.rollout_summary, so.rollout_slug, so.generated_at,
    so.usage_count, so.last_usage, so.selected_for_phase2, so.selected_for_phase2_source_updated_at,
    t.rollout_path, t.cwd, t.git_branch, so.project
FROM stage1_outputs so JOIN threads t ON t.id = so.thread_id
WHERE t.memory_mode = 'enabled' AND so.awaiting_approval = 0 AND (length(trim(so.raw_memory)) > 0 OR length(trim(so.rollout_summary)) > 0)
    AND ((so.last_usage IS NOT NULL AND so.last_usage >= ?) OR (so.last_usage IS NULL AND so.source_updated_at >= ?))
ORDER BY COALESCE(so.usage_count, 0) DESC, COALESCE(so.last_usage, so.source_updated_at) DESC,
    so.source_updated_at DESC, so.thread_id DESC
LIMIT ?

-- name: output.phase2Candidates
-- The ranking columns of every memory output.phase2Selection may take (same WHERE), for the fair
-- policy, which ranks them in Java; ever_selected: a consolidation used it (consolidated_threads)
-- or it is in the current selection. Binds: cutoff, cutoff.
SELECT so.thread_id, COALESCE(so.usage_count, 0) AS usage_count, so.last_usage, so.source_updated_at,
    (so.selected_for_phase2 != 0 OR EXISTS (SELECT 1 FROM consolidated_threads c WHERE c.thread_id = so.thread_id))
        AS ever_selected
FROM stage1_outputs so JOIN threads t ON t.id = so.thread_id
WHERE t.memory_mode = 'enabled' AND so.awaiting_approval = 0 AND (length(trim(so.raw_memory)) > 0 OR length(trim(so.rollout_summary)) > 0)
    AND ((so.last_usage IS NOT NULL AND so.last_usage >= ?) OR (so.last_usage IS NULL AND so.source_updated_at >= ?))

-- name: output.clearSelection
UPDATE stage1_outputs SET selected_for_phase2 = 0, selected_for_phase2_source_updated_at = NULL
WHERE selected_for_phase2 != 0 OR selected_for_phase2_source_updated_at IS NOT NULL

-- name: output.select
UPDATE stage1_outputs SET selected_for_phase2 = 1, selected_for_phase2_source_updated_at = ?
WHERE thread_id = ? AND source_updated_at = ?

-- name: output.recordUsage
UPDATE stage1_outputs SET usage_count = COALESCE(usage_count, 0) + 1, last_usage = ? WHERE thread_id = ?

-- name: output.prune
-- Codex's retention prune (write-sheet §6): stale, unselected rows, oldest first; never a memory
-- awaiting approval (it waits for a person, not for a citation). Binds: cutoff, limit.
DELETE FROM stage1_outputs WHERE thread_id IN (
    SELECT thread_id FROM stage1_outputs
    WHERE selected_for_phase2 = 0 AND awaiting_approval = 0 AND COALESCE(last_usage, source_updated_at) < ?
    ORDER BY COALESCE(last_usage, source_updated_at) ASC, source_updated_at ASC, thread_id ASC
    LIMIT ?)

-- ---- notes awaiting approval --------------------------------------------------------------------

-- name: note.add
-- Keeps a note for approval; a note already kept under that id is left as it was (0 rows).
-- Binds: id, filename, project slug, content, thread, created_at, external_context.
INSERT INTO notes_awaiting_approval (id, filename, project_slug, content, thread_id, created_at, external_context)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (tenant_id, id) DO NOTHING

-- name: note.all
-- Oldest first; notes made in the same second by id.
SELECT id, filename, project_slug, content, thread_id, created_at, external_context FROM notes_awaiting_approval
ORDER BY created_at ASC, id ASC

-- name: note.take
-- Deletes the note and returns it: of two servers taking it at once, the second waits for the
-- first's row lock and then finds nothing to delete. Binds: id.
DELETE FROM notes_awaiting_approval WHERE id = ?
RETURNING id, filename, project_slug, content, thread_id, created_at, external_context

-- name: note.takeOfThread
-- Deletes the notes a conversation asked for (it was forgotten) and returns them oldest first, as
-- note.all lists them (DELETE ... RETURNING promises no order). Binds: thread.
WITH taken AS (
  DELETE FROM notes_awaiting_approval WHERE thread_id = ?
  RETURNING id, filename, project_slug, content, thread_id, created_at, external_context
)
SELECT id, filename, project_slug, content, thread_id, created_at, external_context FROM taken
ORDER BY created_at ASC, id ASC

-- name: note.reject
-- Records a rejected note; a rejection already recorded is kept. Binds: thread, text hash, rejected_at.
INSERT INTO rejected_notes (thread_id, text_hash, rejected_at) VALUES (?, ?, ?)
ON CONFLICT (tenant_id, thread_id, text_hash) DO NOTHING

-- name: note.isRejected
-- Binds: thread, text hash.
SELECT 1 FROM rejected_notes WHERE thread_id = ? AND text_hash = ?

-- name: note.deleteAll
DELETE FROM notes_awaiting_approval

-- ---- locks ---------------------------------------------------------------------------------------

-- name: lock.claims
-- Serialises the claims of one kind for one tenant until the transaction ends, as SQLite's
-- BEGIN IMMEDIATE does for a file: the global running cap and the Phase 2 lock are read-check-write
-- decisions that need one writer at a time. Other tenants never wait on it. Binds: the job kind.
SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/' || ? || '/' || current_setting('mnemo.tenant'), 0))

-- name: phase2.lastSuccessAt
-- When the last consolidation succeeded, kept through later failures (V10).
SELECT last_success_at FROM jobs WHERE kind = 'memory_consolidate_global' AND job_key = 'global'

-- name: forget.recordConsolidated
-- One row per thread, keeping the earliest time. Binds: thread id, epoch seconds.
INSERT INTO consolidated_threads (thread_id, first_consolidated_at) VALUES (?, ?)
ON CONFLICT (tenant_id, thread_id) DO UPDATE SET
    first_consolidated_at = LEAST(consolidated_threads.first_consolidated_at, excluded.first_consolidated_at)

-- name: forget.firstConsolidated
SELECT first_consolidated_at FROM consolidated_threads WHERE thread_id = ?

-- name: forget.addPending
INSERT INTO pending_forgets (thread_id, requested_at) VALUES (?, ?) ON CONFLICT (tenant_id, thread_id) DO NOTHING

-- name: forget.pending
SELECT thread_id FROM pending_forgets ORDER BY thread_id

-- name: forget.completePending
DELETE FROM pending_forgets WHERE thread_id = ANY(?)

-- name: forget.completeConsolidated
DELETE FROM consolidated_threads WHERE thread_id = ANY(?)

-- name: forget.deleteAllPending
DELETE FROM pending_forgets

-- name: forget.deleteAllConsolidated
DELETE FROM consolidated_threads

-- name: output.pruneCandidates
-- output.prune's rows in its order, not deleted: the caller spares some. Binds: cutoff, limit.
SELECT thread_id FROM stage1_outputs
WHERE selected_for_phase2 = 0 AND awaiting_approval = 0 AND COALESCE(last_usage, source_updated_at) < ?
ORDER BY COALESCE(last_usage, source_updated_at) ASC, source_updated_at ASC, thread_id ASC
LIMIT ?

-- name: output.pruneOne
DELETE FROM stage1_outputs WHERE thread_id = ?
