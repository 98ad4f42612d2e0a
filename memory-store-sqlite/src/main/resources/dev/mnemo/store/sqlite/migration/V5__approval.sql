-- Mnemo, approval (issue 30, [memories] approval = "ask"): nothing is remembered until a person
-- agrees.
--
-- A memory Phase 1 stored while approval was asked for has awaiting_approval = 1: Phase 2's
-- selection, the list for global and the unused count leave it out, retention never prunes it,
-- and approving it (setting 0) queues a consolidation. Every row written before this migration is
-- approved (0), as with approval = "auto".
ALTER TABLE stage1_outputs ADD COLUMN awaiting_approval INTEGER NOT NULL DEFAULT 0;

-- The approval queue, oldest first; only awaiting rows are in it.
CREATE INDEX idx_stage1_outputs_awaiting_approval ON stage1_outputs (generated_at, thread_id)
    WHERE awaiting_approval != 0;

-- Ad-hoc notes waiting for approval: taken (deleted) when a person approves one, which writes it to
-- the memory folder, or rejects it. project_slug NULL: a global note; thread_id NULL: not known.
-- created_at is epoch seconds, as in stage1_outputs.
CREATE TABLE notes_awaiting_approval (
    id           TEXT    PRIMARY KEY,
    filename     TEXT    NOT NULL,
    project_slug TEXT,
    content      TEXT    NOT NULL,
    thread_id    TEXT,
    created_at   INTEGER NOT NULL
);
