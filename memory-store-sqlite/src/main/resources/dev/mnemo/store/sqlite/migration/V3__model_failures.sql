-- Mnemo: the last failure of the model itself in Phase 1 (unreachable, unauthorised, rate limited,
-- rejecting the request), shown by status() until a Phase 1 job next succeeds. One row at most.
-- failed_at is epoch seconds, as in jobs.
CREATE TABLE model_failures (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    reason    TEXT    NOT NULL,
    message   TEXT    NOT NULL,
    failed_at INTEGER NOT NULL
);
