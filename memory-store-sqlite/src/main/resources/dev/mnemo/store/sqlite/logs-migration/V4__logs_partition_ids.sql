-- Each thread gets a small integer, its partition id, and the per-thread index is keyed by it instead
-- of the 36-character thread id. Every log row goes into that index at a place set by its thread, so
-- with text keys each insert touched a page somewhere among wide keys; integer keys are a fifth of the
-- size, the index a fraction of the pages, and a log row costs the writer about half the CPU. The
-- rows keep their thread_id column, so the table still reads as Codex's: the writer supplies both,
-- and a row inserted by anyone else without a partition id gets one from the trigger below.

DROP TRIGGER logs_partition_insert;
DROP TRIGGER logs_partition_delete;
DROP TRIGGER logs_partition_update;
DROP TABLE log_partitions;

-- A thread's partition: its id, and its row count and size (kept by the triggers, as since V3).
CREATE TABLE log_partitions (
    id        INTEGER PRIMARY KEY,
    thread_id TEXT    NOT NULL UNIQUE,
    rows      INTEGER NOT NULL DEFAULT 0,
    bytes     INTEGER NOT NULL DEFAULT 0
);

-- The partitions past Codex's caps (LOG_PARTITION_ROW_LIMIT 1,000 rows, LOG_PARTITION_SIZE_LIMIT_BYTES
-- 10 MiB; SqliteThreadLogStore's query repeats the condition word for word so that SQLite uses it).
CREATE INDEX idx_log_partitions_over_cap ON log_partitions (id) WHERE rows > 1000 OR bytes > 10485760;

INSERT INTO log_partitions (thread_id, rows, bytes)
    SELECT thread_id, COUNT(*), COALESCE(SUM(estimated_bytes), 0) FROM logs GROUP BY thread_id ORDER BY MIN(id);

ALTER TABLE logs ADD COLUMN partition_id INTEGER NOT NULL DEFAULT 0;
UPDATE logs SET partition_id = (SELECT p.id FROM log_partitions p WHERE p.thread_id = logs.thread_id);

DROP INDEX idx_logs_thread_size;
-- Carries estimated_bytes, as the index it replaces did, so the byte-cap prune reads the index alone.
CREATE INDEX idx_logs_partition_size ON logs (partition_id, ts DESC, ts_nanos DESC, id DESC, estimated_bytes);

CREATE TRIGGER logs_partition_insert AFTER INSERT ON logs WHEN new.partition_id <> 0 BEGIN
    UPDATE log_partitions SET rows = rows + 1, bytes = bytes + new.estimated_bytes WHERE id = new.partition_id;
END;

-- A row written without a partition id (by a program other than Mnemo's writer): its thread's
-- partition, made when new, is set on it, and the update trigger below counts it.
CREATE TRIGGER logs_partition_assign AFTER INSERT ON logs WHEN new.partition_id = 0 BEGIN
    INSERT INTO log_partitions (thread_id) VALUES (new.thread_id) ON CONFLICT (thread_id) DO NOTHING;
    UPDATE logs SET partition_id = (SELECT id FROM log_partitions WHERE thread_id = new.thread_id)
        WHERE id = new.id;
END;

CREATE TRIGGER logs_partition_delete AFTER DELETE ON logs BEGIN
    UPDATE log_partitions SET rows = rows - 1, bytes = bytes - old.estimated_bytes WHERE id = old.partition_id;
END;

-- Mnemo never updates a log row; were anyone to move one to another thread or resize it, the
-- partition and the sizes follow.
CREATE TRIGGER logs_partition_move AFTER UPDATE OF thread_id ON logs WHEN new.thread_id <> old.thread_id BEGIN
    INSERT INTO log_partitions (thread_id) VALUES (new.thread_id) ON CONFLICT (thread_id) DO NOTHING;
    UPDATE logs SET partition_id = (SELECT id FROM log_partitions WHERE thread_id = new.thread_id)
        WHERE id = new.id;
END;

CREATE TRIGGER logs_partition_update AFTER UPDATE OF partition_id, estimated_bytes ON logs BEGIN
    UPDATE log_partitions SET rows = rows - 1, bytes = bytes - old.estimated_bytes WHERE id = old.partition_id;
    UPDATE log_partitions SET rows = rows + 1, bytes = bytes + new.estimated_bytes WHERE id = new.partition_id;
END;
