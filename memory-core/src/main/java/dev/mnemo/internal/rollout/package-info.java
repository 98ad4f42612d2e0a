/**
 * Codex rollout files: a streaming JSONL reader, the thread facts read from a rollout, the Codex
 * {@code sessions/} folder as a {@link dev.mnemo.spi.RolloutSource}, and the recorder that writes
 * Mnemo's own sessions in the same format.
 */
package dev.mnemo.internal.rollout;
