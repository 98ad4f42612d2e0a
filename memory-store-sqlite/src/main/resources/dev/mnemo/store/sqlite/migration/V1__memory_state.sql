-- Mnemo's state: Codex's table and column names (threads from the state DB, stage1_outputs and
-- jobs from the memories DB) in one file. Thread times are epoch milliseconds; stage1_outputs and
-- jobs times are epoch seconds. Connection pragmas (WAL, busy_timeout, secure_delete, ...) are set
-- per connection by the store, never here: a migration runs inside a transaction.

CREATE TABLE threads (
    id            TEXT PRIMARY KEY,
    rollout_path  TEXT    NOT NULL,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    source        TEXT    NOT NULL,
    cwd           TEXT,
    git_branch    TEXT,
    preview       TEXT    NOT NULL DEFAULT '',
    archived      INTEGER NOT NULL DEFAULT 0,
    memory_mode   TEXT    NOT NULL DEFAULT 'enabled'
);

-- The Phase 1 claim scan: memory_mode = 'enabled' ORDER BY updated_at_ms DESC.
CREATE INDEX idx_threads_memory_mode_updated_at_ms ON threads (memory_mode, updated_at_ms DESC);

CREATE TABLE stage1_outputs (
    thread_id                             TEXT PRIMARY KEY REFERENCES threads (id) ON DELETE CASCADE,
    source_updated_at                     INTEGER NOT NULL,
    raw_memory                            TEXT    NOT NULL,
    rollout_summary                       TEXT    NOT NULL,
    rollout_slug                          TEXT,
    generated_at                          INTEGER NOT NULL,
    usage_count                           INTEGER,
    last_usage                            INTEGER,
    selected_for_phase2                   INTEGER NOT NULL DEFAULT 0,
    selected_for_phase2_source_updated_at INTEGER
);

CREATE INDEX idx_stage1_outputs_source_updated_at ON stage1_outputs (source_updated_at DESC, thread_id DESC);

CREATE TABLE jobs (
    kind                   TEXT    NOT NULL,
    job_key                TEXT    NOT NULL,
    status                 TEXT    NOT NULL,
    worker_id              TEXT,
    ownership_token        TEXT,
    started_at             INTEGER,
    finished_at            INTEGER,
    lease_until            INTEGER,
    retry_at               INTEGER,
    retry_remaining        INTEGER NOT NULL,
    last_error             TEXT,
    input_watermark        INTEGER,
    last_success_watermark INTEGER,
    PRIMARY KEY (kind, job_key)
);

CREATE INDEX idx_jobs_kind_status_retry_lease ON jobs (kind, status, retry_at, lease_until);
