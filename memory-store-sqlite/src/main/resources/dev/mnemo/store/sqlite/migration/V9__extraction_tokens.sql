-- Mnemo: the daily extraction token ledger of [memories] max_extraction_tokens_per_day. One row per
-- UTC day (ISO date, e.g. 2026-06-01): tokens is the usage Phase 1 jobs reported plus the
-- reservations of jobs still running. updated_at is epoch seconds, as in jobs. Deleting today's row
-- lifts today's budget.
CREATE TABLE extraction_tokens (
    day        TEXT    PRIMARY KEY,
    tokens     INTEGER NOT NULL CHECK (tokens >= 0),
    updated_at INTEGER NOT NULL
);
