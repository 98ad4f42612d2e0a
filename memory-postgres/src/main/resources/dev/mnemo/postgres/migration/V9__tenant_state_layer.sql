-- The state layer in fleet mode (issue 31): the message history, thread goals and thread logs that
-- a home keeps in history.jsonl, goals.sqlite and logs.sqlite, here as tables per tenant scoped like
-- V1's (every statement goes through the views below; none names a tenant).

-- Thread goals: memory-store-sqlite's goals.sqlite (Codex's goals_1.sqlite), one goal per thread.
-- No foreign key, as there: a goal may be set before its thread is recorded.
CREATE TABLE tenant_thread_goals (
    tenant_id         TEXT   NOT NULL,
    thread_id         TEXT   NOT NULL,
    goal_id           TEXT   NOT NULL,
    objective         TEXT   NOT NULL,
    status            TEXT   NOT NULL CHECK (status IN
                          ('active', 'paused', 'blocked', 'usage_limited', 'budget_limited', 'complete')),
    token_budget      BIGINT,
    tokens_used       BIGINT NOT NULL DEFAULT 0,
    time_used_seconds BIGINT NOT NULL DEFAULT 0,
    created_at_ms     BIGINT NOT NULL,
    updated_at_ms     BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, thread_id)
);

SELECT create_tenant_view('thread_goals', 'tenant_thread_goals');

-- Thread logs: memory-store-sqlite's logs.sqlite (Codex's logs_2.sqlite less its tracing columns).
-- Times are Unix seconds plus nanoseconds; estimated_bytes is the UTF-8 size of message, level and
-- target. A thread's rows are read and pruned newest first, per tenant.
CREATE TABLE tenant_thread_logs (
    tenant_id       TEXT    NOT NULL,
    id              BIGINT  GENERATED ALWAYS AS IDENTITY,
    ts              BIGINT  NOT NULL,
    ts_nanos        INTEGER NOT NULL,
    level           TEXT    NOT NULL,
    target          TEXT    NOT NULL,
    message         TEXT    NOT NULL,
    thread_id       TEXT    NOT NULL,
    estimated_bytes BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, id)
);

CREATE INDEX idx_thread_logs_thread_ts
    ON tenant_thread_logs (tenant_id, thread_id, ts DESC, ts_nanos DESC, id DESC) INCLUDE (estimated_bytes);
CREATE INDEX idx_thread_logs_ts ON tenant_thread_logs (tenant_id, ts DESC, ts_nanos DESC, id DESC);

SELECT create_tenant_view('thread_logs', 'tenant_thread_logs');

-- The message history: one row per line of Codex's history.jsonl ({"session_id","ts","text"}),
-- line_bytes being that line's UTF-8 length, what it counts for against [history] max_bytes. The
-- id is the entry's offset: never reused, so an offset whose line was trimmed or removed finds
-- nothing (and, read through the view, never another tenant's line).
CREATE TABLE tenant_message_history (
    tenant_id  TEXT   NOT NULL,
    id         BIGINT GENERATED ALWAYS AS IDENTITY,
    session_id TEXT   NOT NULL,
    ts         BIGINT NOT NULL,
    text       TEXT   NOT NULL,
    line_bytes BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, id) INCLUDE (line_bytes)
);

CREATE INDEX idx_message_history_session ON tenant_message_history (tenant_id, session_id);

SELECT create_tenant_view('message_history', 'tenant_message_history');
