-- Mnemo, scoped memory (issue 29): the project a session is in, and beside each memory the project
-- its thread was in when the memory was extracted (copied from threads.project by the Phase 1
-- completion; moving the thread later changes it only at the next extraction). NULL is no project:
-- a global memory, as every row written before this migration is.
ALTER TABLE threads ADD COLUMN project TEXT;
ALTER TABLE stage1_outputs ADD COLUMN project TEXT;
