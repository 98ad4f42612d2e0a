package dev.mnemo.spi;

import dev.mnemo.SessionContext;
import dev.mnemo.ThreadInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Where the rollouts of recorded sessions live: the session recorder appends Codex-format JSONL
 * lines through it, and Phase 1 reads a thread's rollout back through it as a byte stream. The
 * default keeps them as files under {@code <home>/sessions/}; fleet mode keeps them in a database so
 * a conversation recorded on one server is extracted on another.
 *
 * <p>A thread's {@link ThreadInfo#rolloutPath()} is what {@link Writer#rolloutPath()} said when it
 * was recorded: a file for the default store, a stable locator for others. Rollouts this store does
 * not {@linkplain #holds hold} (Codex CLI's own sessions, scanned by a {@link RolloutSource}) are
 * read as files by the engine. Implementations are thread-safe.
 */
public interface SessionStore {

    /**
     * A short name for logs, e.g. {@code files:/home/me/.mnemo/sessions}.
     *
     * @return the store's kind and location, for logs
     */
    String name();

    /**
     * Starts writing the rollout of {@code session}: continues the rollout of {@code earlier} when
     * this store holds it, else begins a new one (the caller then writes the {@code session_meta}
     * line first).
     *
     * @param earlier the thread's row when the thread is already registered
     * @param now the time the session starts, for naming a new rollout
     * @param session the recorded session: its thread id, project and the like
     * @return a writer positioned after the rollout's last line
     * @throws IOException when the rollout cannot be created
     */
    Writer startOrContinue(SessionContext session, Optional<ThreadInfo> earlier, Instant now) throws IOException;

    /**
     * Whether the rollout of {@code thread} is one this store recorded and still holds.
     *
     * @param thread the thread's row
     * @return true when this store recorded the rollout and still has it
     */
    boolean holds(ThreadInfo thread);

    /**
     * Opens the rollout of {@code thread} (one this store {@linkplain #holds holds}) as the bytes
     * of its JSONL lines, in the order they were appended. The caller closes the stream.
     *
     * @param thread the thread's row, one this store holds
     * @return a stream over the rollout's bytes, to be closed by the caller
     * @throws IOException when it cannot be read or is gone
     */
    InputStream open(ThreadInfo thread) throws IOException;

    /**
     * Deletes the rollout of {@code thread}, when this store holds it (forgetting a thread).
     *
     * @param thread the thread's row
     * @return whether anything was deleted
     * @throws IOException when the rollout exists but cannot be deleted
     */
    boolean delete(ThreadInfo thread) throws IOException;

    /** Appends to one rollout; used by one recorded session, one line at a time. */
    interface Writer {

        /**
         * What the thread row records as the rollout's location.
         *
         * @return the rollout's location: a file for the default store, a stable locator for others
         */
        Path rolloutPath();

        /**
         * True when an earlier rollout is continued (it already has its {@code session_meta} line).
         *
         * @return true when continuing an earlier rollout, false for a new one
         */
        boolean continued();

        /**
         * Appends one whole line (UTF-8, ending in {@code \n}); it is stored before this returns, and a
         * crash never leaves part of it.
         *
         * @param line the line's UTF-8 bytes, ending in {@code \n}
         * @throws IOException when the line cannot be stored
         */
        void append(byte[] line) throws IOException;
    }
}
