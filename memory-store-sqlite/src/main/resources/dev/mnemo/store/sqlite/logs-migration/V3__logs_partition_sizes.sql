-- Each thread's row count and size, kept by SQLite itself on every insert and delete (whoever
-- writes the file), so the cap check after a batch reads the threads over a cap from a small
-- partial index instead of counting every touched thread's up to 1,000 rows, and the row-cap
-- prune knows how many of the oldest rows to drop.
CREATE TABLE log_partitions (
    thread_id TEXT    NOT NULL PRIMARY KEY,
    rows      INTEGER NOT NULL,
    bytes     INTEGER NOT NULL
) WITHOUT ROWID;

-- The threads past Codex's caps (LOG_PARTITION_ROW_LIMIT 1,000 rows, LOG_PARTITION_SIZE_LIMIT_BYTES
-- 10 MiB; ThreadLogStore's constants, which SqliteThreadLogStore's query repeats word for word so
-- that SQLite uses this index): between the insert of a batch and its prune, and never after.
CREATE INDEX idx_log_partitions_over_cap ON log_partitions (thread_id) WHERE rows > 1000 OR bytes > 10485760;

INSERT INTO log_partitions (thread_id, rows, bytes)
    SELECT thread_id, COUNT(*), COALESCE(SUM(estimated_bytes), 0) FROM logs GROUP BY thread_id;

CREATE TRIGGER logs_partition_insert AFTER INSERT ON logs BEGIN
    INSERT INTO log_partitions (thread_id, rows, bytes) VALUES (new.thread_id, 1, new.estimated_bytes)
        ON CONFLICT (thread_id) DO UPDATE SET rows = rows + 1, bytes = bytes + excluded.bytes;
END;

CREATE TRIGGER logs_partition_delete AFTER DELETE ON logs BEGIN
    UPDATE log_partitions SET rows = rows - 1, bytes = bytes - old.estimated_bytes
        WHERE thread_id = old.thread_id;
END;

-- Mnemo never updates a log row; were anyone to move one to another thread or resize it, the sizes follow.
CREATE TRIGGER logs_partition_update AFTER UPDATE OF thread_id, estimated_bytes ON logs BEGIN
    UPDATE log_partitions SET rows = rows - 1, bytes = bytes - old.estimated_bytes
        WHERE thread_id = old.thread_id;
    INSERT INTO log_partitions (thread_id, rows, bytes) VALUES (new.thread_id, 1, new.estimated_bytes)
        ON CONFLICT (thread_id) DO UPDATE SET rows = rows + 1, bytes = bytes + excluded.bytes;
END;
