-- Notes tied to their conversation (issue 36): memory-store-sqlite's V8, scoped like V1.
--
-- A note a conversation asked for after it had seen external context (a web page, a search, an MCP
-- tool's output) waits for a person even with approval = "auto": external_context = 1 says why it
-- waits. Rows written before this migration waited for approval alone (0). thread_id, from V7, now
-- names the conversation for every note the engine queues; NULL: asked for outside any (a person).
ALTER TABLE tenant_notes_awaiting_approval ADD COLUMN external_context INTEGER NOT NULL DEFAULT 0;

-- Forgetting a conversation removes its pending notes.
CREATE INDEX idx_notes_awaiting_approval_thread ON tenant_notes_awaiting_approval (tenant_id, thread_id)
    WHERE thread_id IS NOT NULL;

-- The view of V7 was created with the table's columns at the time: recreate it to show the new one.
DROP VIEW notes_awaiting_approval;
SELECT create_tenant_view('notes_awaiting_approval', 'tenant_notes_awaiting_approval');

-- Notes a person rejected: the same note (text_hash, the engine's fingerprint of its normalised
-- text; no text is kept) from the same conversation (thread_id, '' for none) is refused from then
-- on. rejected_at is epoch seconds.
CREATE TABLE tenant_rejected_notes (
    tenant_id   TEXT   NOT NULL,
    thread_id   TEXT   NOT NULL,
    text_hash   TEXT   NOT NULL,
    rejected_at BIGINT NOT NULL,
    PRIMARY KEY (tenant_id, thread_id, text_hash)
);

SELECT create_tenant_view('rejected_notes', 'tenant_rejected_notes');
