-- Conversations the application ended (issue 38): memory-store-sqlite's V10, scoped like V1.
--
-- ended_at_ms: when the application last said the conversation was over (MemorySession.end(),
-- MemoryEngine.closeConversation), epoch milliseconds like updated_at_ms; NULL: never. A thread is
-- finished while ended_at_ms >= updated_at_ms, and a finished thread passes Phase 1's idle gate
-- (Stage1ClaimParams.passesIdleGate). Only the end call writes it, through the tenant's view: a
-- thread upsert keeps it, so a rollout scan never wipes it, and a line recorded later (a later
-- updated_at_ms) outdates it. No index: the claim scan reads it only for the rows its index found.
ALTER TABLE tenant_threads ADD COLUMN ended_at_ms BIGINT;

-- The view of V6 was created with the table's columns at the time: recreate it to show the new one.
DROP VIEW threads;
SELECT create_tenant_view('threads', 'tenant_threads');
