-- Mnemo, the spawn graph (issue 31): which thread spawned which sub-agent thread, Codex's
-- thread_spawn_edges (state migration 0021). The child is the key, so a thread has one parent;
-- status is 'open' or 'closed', stored as text like Codex's (an unknown value is kept, not refused).
-- Numbered 6, not 5, so a parallel branch's V5 can land first; renumber freely before a release.
CREATE TABLE thread_spawn_edges (
    parent_thread_id TEXT NOT NULL,
    child_thread_id  TEXT NOT NULL PRIMARY KEY,
    status           TEXT NOT NULL
);

CREATE INDEX idx_thread_spawn_edges_parent_status ON thread_spawn_edges (parent_thread_id, status);
