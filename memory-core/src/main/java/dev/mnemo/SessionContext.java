package dev.mnemo;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The session an agent is starting or recording.
 *
 * @param threadId the session's id: any non-blank text ({@code chat-42}, {@code user@example.com/7}, a
 *     UUID as Codex uses); it keys the rollout, the extracted memory and the citations that count it
 * @param source where it runs: {@code app} for sessions recorded through Mnemo, or Codex's
 *     {@code cli}, {@code vscode}, {@code exec}, {@code mcp}; only sources listed in
 *     {@code memory_sources} become memories
 * @param ephemeral a throw-away session: the startup task does nothing and nothing is recorded
 * @param subAgent a session started by another agent: the startup task does nothing and its
 *     rollout never becomes memory
 * @param cwd the working folder, if the agent has one
 */
public record SessionContext(String threadId, String source, boolean ephemeral, boolean subAgent, Optional<Path> cwd) {
    public SessionContext {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(cwd, "cwd");
        if (threadId.isBlank()) {
            throw new IllegalArgumentException("threadId must not be blank");
        }
        if (source.isBlank()) {
            throw new IllegalArgumentException("source must not be blank");
        }
    }

    /** A top-level interactive session of the host application: source {@code app}. */
    public static SessionContext root(String threadId) {
        return new SessionContext(threadId, "app", false, false, Optional.empty());
    }
}
