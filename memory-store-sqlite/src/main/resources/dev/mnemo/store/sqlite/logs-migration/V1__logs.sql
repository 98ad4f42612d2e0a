-- Mnemo's thread logs (issue 31), <home>/logs.sqlite: Codex's logs table (logs_2.sqlite) less the
-- columns of its tracing layer (module_path, file, line, process_uuid). Every row has a thread id:
-- events that concern no one conversation go to pseudo-threads such as 'mnemo:phase2'. Times are
-- Unix seconds plus nanoseconds; estimated_bytes is the UTF-8 size of message, level and target.
CREATE TABLE logs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    ts              INTEGER NOT NULL,
    ts_nanos        INTEGER NOT NULL,
    level           TEXT    NOT NULL,
    target          TEXT    NOT NULL,
    message         TEXT    NOT NULL,
    thread_id       TEXT    NOT NULL,
    estimated_bytes INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX idx_logs_ts ON logs (ts DESC, ts_nanos DESC, id DESC);
CREATE INDEX idx_logs_thread_id_ts ON logs (thread_id, ts DESC, ts_nanos DESC, id DESC);
