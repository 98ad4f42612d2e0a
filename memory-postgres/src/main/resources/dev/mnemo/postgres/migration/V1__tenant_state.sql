-- Mnemo's state for many tenants: Codex's threads, stage1_outputs and jobs, every row keyed by
-- tenant. Thread times are epoch milliseconds; stage1_outputs and jobs times are epoch seconds.
--
-- Tenant scoping lives in one place: the tenant_* tables are never named by a query. Every
-- statement reads and writes the views below, which show only the rows of the tenant named by the
-- transaction setting mnemo.tenant (set by PostgresBackend when it opens a transaction); reading a
-- view without that setting fails instead of showing every tenant. The views are automatically
-- updatable, default tenant_id to the current tenant on INSERT and refuse (WITH CHECK OPTION) a row
-- of another tenant, so the statements keep SQLite's text, column for column.

CREATE TABLE tenant_threads (
    tenant_id     TEXT    NOT NULL,
    id            TEXT    NOT NULL,
    rollout_path  TEXT    NOT NULL,
    created_at_ms BIGINT  NOT NULL,
    updated_at_ms BIGINT  NOT NULL,
    source        TEXT    NOT NULL,
    cwd           TEXT,
    git_branch    TEXT,
    preview       TEXT    NOT NULL DEFAULT '',
    archived      INTEGER NOT NULL DEFAULT 0,
    memory_mode   TEXT    NOT NULL DEFAULT 'enabled',
    PRIMARY KEY (tenant_id, id)
);

-- The Phase 1 claim scan: memory_mode = 'enabled' ORDER BY updated_at_ms DESC, per tenant.
CREATE INDEX idx_threads_memory_mode_updated_at_ms
    ON tenant_threads (tenant_id, memory_mode, updated_at_ms DESC);

CREATE TABLE tenant_stage1_outputs (
    tenant_id                             TEXT    NOT NULL,
    thread_id                             TEXT    NOT NULL,
    source_updated_at                     BIGINT  NOT NULL,
    raw_memory                            TEXT    NOT NULL,
    rollout_summary                       TEXT    NOT NULL,
    rollout_slug                          TEXT,
    generated_at                          BIGINT  NOT NULL,
    usage_count                           INTEGER,
    last_usage                            BIGINT,
    selected_for_phase2                   INTEGER NOT NULL DEFAULT 0,
    selected_for_phase2_source_updated_at BIGINT,
    PRIMARY KEY (tenant_id, thread_id),
    FOREIGN KEY (tenant_id, thread_id) REFERENCES tenant_threads (tenant_id, id) ON DELETE CASCADE
);

CREATE INDEX idx_stage1_outputs_source_updated_at
    ON tenant_stage1_outputs (tenant_id, source_updated_at DESC, thread_id DESC);

-- Phase 2 selection ranks memories by usage, then recency of use, then recency of the rollout:
-- an index on exactly the ORDER BY expressions lets it walk one tenant's memories best first.
CREATE INDEX idx_stage1_outputs_phase2_rank ON tenant_stage1_outputs (
    tenant_id,
    COALESCE(usage_count, 0) DESC,
    COALESCE(last_usage, source_updated_at) DESC,
    source_updated_at DESC,
    thread_id DESC
);

CREATE TABLE tenant_jobs (
    tenant_id              TEXT    NOT NULL,
    kind                   TEXT    NOT NULL,
    job_key                TEXT    NOT NULL,
    status                 TEXT    NOT NULL,
    worker_id              TEXT,
    ownership_token        TEXT,
    started_at             BIGINT,
    finished_at            BIGINT,
    lease_until            BIGINT,
    retry_at               BIGINT,
    retry_remaining        INTEGER NOT NULL,
    last_error             TEXT,
    input_watermark        BIGINT,
    last_success_watermark BIGINT,
    PRIMARY KEY (tenant_id, kind, job_key)
);

CREATE INDEX idx_jobs_kind_status_retry_lease ON tenant_jobs (tenant_id, kind, status, retry_at, lease_until);

-- The one definition of tenant scoping: a view over a tenant_* table showing (and accepting) only
-- the rows of the transaction's tenant. Later migrations create their views with it too.
CREATE FUNCTION create_tenant_view(view_name TEXT, table_name TEXT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE VIEW %I AS SELECT * FROM %I WHERE tenant_id = current_setting(''mnemo.tenant'')'
        ' WITH LOCAL CHECK OPTION', view_name, table_name);
    EXECUTE format('ALTER VIEW %I ALTER COLUMN tenant_id SET DEFAULT current_setting(''mnemo.tenant'')', view_name);
END
$$;

SELECT create_tenant_view('threads', 'tenant_threads');
SELECT create_tenant_view('stage1_outputs', 'tenant_stage1_outputs');
SELECT create_tenant_view('jobs', 'tenant_jobs');
