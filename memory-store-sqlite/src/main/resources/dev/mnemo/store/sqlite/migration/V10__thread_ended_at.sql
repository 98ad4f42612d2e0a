-- Mnemo, conversations the application ended (issue 38).
--
-- ended_at_ms: when the application last said the conversation was over (MemorySession.end(),
-- MemoryEngine.closeConversation), epoch milliseconds like updated_at_ms; NULL: never. A thread is
-- finished while ended_at_ms >= updated_at_ms, and a finished thread passes Phase 1's idle gate
-- (Stage1ClaimParams.passesIdleGate). Only the end call writes it: a thread upsert keeps it, so a
-- rollout scan never wipes it, and a line recorded later (a later updated_at_ms) outdates it.
-- No index: the claim scan reads it only for the rows its index already found.
ALTER TABLE threads ADD COLUMN ended_at_ms INTEGER;
