package dev.mnemo.eval;

/**
 * How the memory of a {@link CrossProjectScenario} is written and read: the same sessions and
 * probes, in a home of their own for each path.
 */
public enum ReadPath {
    /**
     * Mnemo's scopes: each session is recorded in its project ({@code SessionContext.inProject}),
     * Phase 2 files project memory under {@code projects/<slug>/}, and a probe in a project is
     * given that project's memory and the global one, never another project's.
     */
    SCOPED,
    /**
     * One global memory, as Codex keeps it: the same sessions and probes with no project, so every
     * project's facts end up in one summary that every session is given.
     */
    GLOBAL_ONLY
}
