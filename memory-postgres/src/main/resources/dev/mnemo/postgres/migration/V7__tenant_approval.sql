-- Approval (issue 30, [memories] approval = "ask"): nothing is remembered until a person agrees.
-- memory-store-sqlite's V5, scoped like V1.
--
-- A memory Phase 1 stored while approval was asked for has awaiting_approval = 1: Phase 2's
-- selection, the list for global and the unused count leave it out, retention never prunes it,
-- and approving it (setting 0) queues a consolidation. Every row written before this migration is
-- approved (0), as with approval = "auto".

ALTER TABLE tenant_stage1_outputs ADD COLUMN awaiting_approval INTEGER NOT NULL DEFAULT 0;

-- The approval queue, oldest first; only awaiting rows are in it.
CREATE INDEX idx_stage1_outputs_awaiting_approval ON tenant_stage1_outputs (tenant_id, generated_at, thread_id)
    WHERE awaiting_approval != 0;

-- The view of V6 was created with the table's columns at the time: recreate it to show the new one.
DROP VIEW stage1_outputs;
SELECT create_tenant_view('stage1_outputs', 'tenant_stage1_outputs');

-- Ad-hoc notes waiting for approval (not V5's pending_notes, which are notes already taken and not
-- yet consolidated): deleted when a person approves one, which writes it to the memory files, or
-- rejects it. project_slug NULL: a global note; thread_id NULL: not known. created_at is epoch
-- seconds, as in stage1_outputs.
CREATE TABLE tenant_notes_awaiting_approval (
    tenant_id    TEXT   NOT NULL,
    id           TEXT   NOT NULL,
    filename     TEXT   NOT NULL,
    project_slug TEXT,
    content      TEXT   NOT NULL,
    thread_id    TEXT,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, id)
);

SELECT create_tenant_view('notes_awaiting_approval', 'tenant_notes_awaiting_approval');
