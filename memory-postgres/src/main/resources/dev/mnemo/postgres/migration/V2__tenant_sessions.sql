-- Recorded sessions: the rollout of each thread as its JSONL lines, one row per appended line (an
-- append never rewrites earlier lines), read back in seq order. Scoped by tenant like V1's tables.

CREATE TABLE tenant_rollout_lines (
    tenant_id TEXT   NOT NULL,
    thread_id TEXT   NOT NULL,
    seq       BIGINT GENERATED ALWAYS AS IDENTITY,
    line      BYTEA  NOT NULL,
    PRIMARY KEY (tenant_id, thread_id, seq)
);

CREATE VIEW rollout_lines AS
    SELECT * FROM tenant_rollout_lines WHERE tenant_id = current_setting('mnemo.tenant')
    WITH LOCAL CHECK OPTION;
ALTER VIEW rollout_lines ALTER COLUMN tenant_id SET DEFAULT current_setting('mnemo.tenant');
