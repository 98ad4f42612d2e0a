-- Forgetting that survives trimmed history and failed runs (issue 36): memory-store-sqlite's V7,
-- scoped like V1 (every statement goes through the views; none names a tenant).

-- Every thread a successful consolidation used, with the time of the first one (epoch seconds),
-- so a forget knows the memory files may hold its text when the kept history no longer names it.
-- No foreign key: a deleted thread's row stays until its forget is complete.
CREATE TABLE tenant_consolidated_threads (
    tenant_id             TEXT   NOT NULL,
    thread_id             TEXT   NOT NULL,
    first_consolidated_at BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, thread_id)
);

-- Memories selected by the last consolidation before this version: first use unknown, so 0.
INSERT INTO tenant_consolidated_threads (tenant_id, thread_id, first_consolidated_at)
    SELECT tenant_id, thread_id, 0 FROM tenant_stage1_outputs WHERE selected_for_phase2 = 1
    ON CONFLICT DO NOTHING;

SELECT create_tenant_view('consolidated_threads', 'tenant_consolidated_threads');

-- Forgets the workspace has not completed yet; every Phase 2 run completes them first and last.
CREATE TABLE tenant_pending_forgets (
    tenant_id    TEXT   NOT NULL,
    thread_id    TEXT   NOT NULL,
    requested_at BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, thread_id)
);

SELECT create_tenant_view('pending_forgets', 'tenant_pending_forgets');

-- The last successful consolidation's time, kept through later failures and forgets.
ALTER TABLE tenant_jobs ADD COLUMN last_success_at BIGINT;
UPDATE tenant_jobs SET last_success_at = finished_at
    WHERE kind = 'memory_consolidate_global' AND status = 'done' AND last_error IS NULL;

-- The view of V1 was created with the table's columns at the time: recreate it to show the new one.
DROP VIEW jobs;
SELECT create_tenant_view('jobs', 'tenant_jobs');
