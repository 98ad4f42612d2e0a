-- Mnemo, notes tied to their conversation (issue 36).
--
-- A note a conversation asked for after it had seen external context (a web page, a search, an MCP
-- tool's output) waits for a person even with approval = "auto": external_context = 1 says why it
-- waits. Rows written before this migration waited for approval alone (0). thread_id, from V5, now
-- names the conversation for every note the engine queues; NULL: asked for outside any (a person).
ALTER TABLE notes_awaiting_approval ADD COLUMN external_context INTEGER NOT NULL DEFAULT 0;

-- Forgetting a conversation removes its pending notes.
CREATE INDEX idx_notes_awaiting_approval_thread ON notes_awaiting_approval (thread_id)
    WHERE thread_id IS NOT NULL;

-- Notes a person rejected: the same note (text_hash, the engine's fingerprint of its normalised
-- text; no text is kept) from the same conversation (thread_id, '' for none) is refused from then
-- on. rejected_at is epoch seconds.
CREATE TABLE rejected_notes (
    thread_id   TEXT    NOT NULL,
    text_hash   TEXT    NOT NULL,
    rejected_at INTEGER NOT NULL,
    PRIMARY KEY (thread_id, text_hash)
);
