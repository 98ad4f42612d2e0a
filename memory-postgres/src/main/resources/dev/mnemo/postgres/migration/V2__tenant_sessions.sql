-- Recorded sessions: the rollout of each thread as its JSONL lines, one row per appended line (an
-- append never rewrites earlier lines), read back in seq order. Scoped by tenant like V1's tables.

CREATE TABLE tenant_rollout_lines (
    tenant_id TEXT   NOT NULL,
    thread_id TEXT   NOT NULL,
    seq       BIGINT GENERATED ALWAYS AS IDENTITY,
    line      BYTEA  NOT NULL,
    PRIMARY KEY (tenant_id, thread_id, seq)
);

SELECT create_tenant_view('rollout_lines', 'tenant_rollout_lines');
