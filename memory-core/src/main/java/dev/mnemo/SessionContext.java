package dev.mnemo;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The session an agent is starting or recording.
 *
 * <p>Its scope: a session in a project (see {@link #project()}) is given that project's memory and
 * the user's global memory, never another project's; what it teaches is filed under its project.
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
 * @param explicitProject the project the application named with {@link #inProject(String)}, if any
 * @param parentThreadId the session that spawned this one ({@link #spawnedBy(String)}), if any
 */
public record SessionContext(String threadId, String source, boolean ephemeral, boolean subAgent, Optional<Path> cwd,
        Optional<String> explicitProject, Optional<String> parentThreadId) {

    /**
     * Checks the components; a named project key is stripped.
     *
     * @param threadId the session's id: any non-blank text
     * @param source where it runs: {@code app}, or Codex's {@code cli}, {@code vscode}, {@code exec}, {@code mcp}
     * @param ephemeral a throw-away session: nothing is recorded
     * @param subAgent a session started by another agent: it never becomes memory
     * @param cwd the working folder, if the agent has one
     * @param explicitProject the project the application named, if any
     * @param parentThreadId the session that spawned this one, if any
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when the thread id, the source, a named project key or a parent id is blank
     */
    public SessionContext {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(cwd, "cwd");
        Objects.requireNonNull(explicitProject, "explicitProject");
        Objects.requireNonNull(parentThreadId, "parentThreadId");
        if (threadId.isBlank()) {
            throw new IllegalArgumentException("threadId must not be blank");
        }
        if (source.isBlank()) {
            throw new IllegalArgumentException("source must not be blank");
        }
        explicitProject = explicitProject.map(ProjectKeys::requireValid);
        if (parentThreadId.isPresent() && parentThreadId.get().isBlank()) {
            throw new IllegalArgumentException("parentThreadId must not be blank");
        }
    }

    /**
     * A session with no named project and no parent (the form of earlier releases).
     *
     * @param threadId the session's id: any non-blank text
     * @param source where it runs: {@code app}, or Codex's {@code cli}, {@code vscode}, {@code exec}, {@code mcp}
     * @param ephemeral a throw-away session: nothing is recorded
     * @param subAgent a session started by another agent: it never becomes memory
     * @param cwd the working folder, if the agent has one
     */
    public SessionContext(String threadId, String source, boolean ephemeral, boolean subAgent, Optional<Path> cwd) {
        this(threadId, source, ephemeral, subAgent, cwd, Optional.empty(), Optional.empty());
    }

    /**
     * A top-level interactive session of the host application: source {@code app}.
     *
     * @param threadId the session's id: any non-blank text
     * @return a session from source {@code app}, not ephemeral, no sub-agent, with no working folder
     * @throws NullPointerException when {@code threadId} is null
     * @throws IllegalArgumentException when it is blank
     */
    public static SessionContext root(String threadId) {
        return new SessionContext(threadId, "app", false, false, Optional.empty());
    }

    /**
     * This session in the named project: a workspace, a case, a customer account, a repository
     * id. Sessions with equal keys share project memory; the key is compared exactly (after
     * stripping surrounding blanks) and never shown to a model provider except as its
     * {@link ProjectKeys#slug slug}.
     *
     * @param projectKey the project key, as {@link ProjectKeys} describes it
     * @return a copy of this session in that project
     * @throws IllegalArgumentException when the key is blank
     * @throws NullPointerException when {@code projectKey} is null
     */
    public SessionContext inProject(String projectKey) {
        return new SessionContext(threadId, source, ephemeral, subAgent, cwd,
                Optional.of(ProjectKeys.requireValid(Objects.requireNonNull(projectKey, "projectKey"))),
                parentThreadId);
    }

    /**
     * This session working in {@code cwd}. Without an explicit project, the session's project is
     * derived from it ({@link ProjectKeys#forDirectory}).
     *
     * @param cwd the working folder
     * @return a copy of this session with that working folder
     * @throws NullPointerException when {@code cwd} is null
     */
    public SessionContext withCwd(Path cwd) {
        return new SessionContext(threadId, source, ephemeral, subAgent, Optional.of(Objects.requireNonNull(cwd, "cwd")),
                explicitProject, parentThreadId);
    }

    /**
     * A sub-agent session spawned by {@code parentThreadId}: as {@link #subAgent()} says, it never
     * becomes memory itself.
     *
     * @param parentThreadId the thread id of the session that spawned it
     * @return a copy of this session marked as a sub-agent of that session
     * @throws NullPointerException when {@code parentThreadId} is null
     * @throws IllegalArgumentException when it is blank
     */
    public SessionContext spawnedBy(String parentThreadId) {
        Objects.requireNonNull(parentThreadId, "parentThreadId");
        return new SessionContext(threadId, source, ephemeral, true, cwd, explicitProject, Optional.of(parentThreadId));
    }

    /**
     * The session's project key: the explicit one, else the repository of its working folder
     * ({@link ProjectKeys#forDirectory}), else empty (the session then sees global memory and an
     * index of the projects that have memory). Deriving reads the file system; callers that need
     * it often keep the result.
     *
     * @return the project key, or empty
     */
    public Optional<String> project() {
        if (explicitProject.isPresent()) {
            return explicitProject;
        }
        return cwd.map(ProjectKeys::forDirectory);
    }
}
