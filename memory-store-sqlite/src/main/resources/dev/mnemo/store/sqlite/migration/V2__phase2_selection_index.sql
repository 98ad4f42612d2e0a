-- Phase 2 selection ranks memories by usage, then recency of use, then recency of the rollout.
-- An index on exactly the ORDER BY expressions lets the selection walk memories best first and
-- stop after the limit, instead of sorting every row (100,000 rows: ~250 ms -> ~1 ms).
CREATE INDEX idx_stage1_outputs_phase2_rank ON stage1_outputs (
    COALESCE(usage_count, 0) DESC,
    COALESCE(last_usage, source_updated_at) DESC,
    source_updated_at DESC,
    thread_id DESC
);
