-- Scoped memory (issue 29): the project a session is in, and beside each memory the project its
-- thread was in when the memory was extracted (copied from threads.project by the Phase 1
-- completion; moving the thread later changes it only at the next extraction). NULL is no project:
-- a global memory, as every row written before this migration is. memory-store-sqlite's V4.

ALTER TABLE tenant_threads ADD COLUMN project TEXT;
ALTER TABLE tenant_stage1_outputs ADD COLUMN project TEXT;

-- The views of V1 were created with the tables' columns at the time: recreate them to show the new ones.
DROP VIEW threads;
SELECT create_tenant_view('threads', 'tenant_threads');
DROP VIEW stage1_outputs;
SELECT create_tenant_view('stage1_outputs', 'tenant_stage1_outputs');
