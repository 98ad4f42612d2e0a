/**
 * The short-term layer: what is kept ({@link dev.mnemo.internal.history.EngineHistory}) and the
 * default place it is kept, {@code <home>/history.jsonl}, one user message per line in Codex's format,
 * appended by several processes at once under a file lock, trimmed to its soft cap, and read by
 * offsets that a trim makes detectably stale.
 */
package dev.mnemo.internal.history;
