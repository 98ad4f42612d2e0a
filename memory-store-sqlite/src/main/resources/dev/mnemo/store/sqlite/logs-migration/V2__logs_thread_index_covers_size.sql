-- The per-thread index also carries estimated_bytes, so the cap check after each batch (a thread's
-- row count and size) reads the index alone, not the rows.
CREATE INDEX idx_logs_thread_size ON logs (thread_id, ts DESC, ts_nanos DESC, id DESC, estimated_bytes);
DROP INDEX idx_logs_thread_id_ts;
