package dev.mnemo;

import java.util.List;

/** Operations for tools and operators: run phases on demand, look inside, roll back, forget. */
public interface MemoryAdmin {

    /** Scans the rollout sources into the thread registry; returns rows added or changed. */
    int syncThreads();

    /** Runs Phase 1 synchronously, with the same rules as the startup task. */
    Phase1Report runPhase1(String currentThreadId);

    /**
     * What {@link #runPhase1} would do now, without calling a model or writing anything: each
     * registered thread with the reason it would or would not be claimed, and the exact request
     * for the first one (filtered, redacted and fitted to the extraction model's budget; 150,000
     * tokens when no model is configured). Call {@link #syncThreads()} first to see new rollouts.
     */
    Phase1Preview previewPhase1(String currentThreadId);

    /** Runs Phase 2 synchronously, with the same rules as the startup task. */
    Phase2Report runPhase2();

    /**
     * Submits the whole background pipeline (sync threads, prune, Phase 1, Phase 2), with the rules
     * of a startup task and coalesced with one queued, for no session in particular; returns at
     * once. What a scheduler calls, so that a server whose conversations stay open still extracts
     * and consolidates them once they are idle. Also closes conversations idle past the engine's
     * conversation idle timeout.
     */
    StartupTask startPipeline();

    /** Deletes stage-1 memories unused for {@code max_unused_days}; returns how many. */
    int prune();

    MemoryStatus status();

    /** Consolidations kept in the workspace history, newest first. */
    List<Consolidation> history();

    /** Restores the workspace as that consolidation left it, as a new history entry. */
    void rollback(String consolidationId);

    /**
     * Forgets everything: stored memories, jobs, the workspace and its history. Threads stay
     * registered with their memory modes, so, as in Codex, the next run extracts the enabled
     * threads' rollouts again; disable or delete threads first to keep them out.
     */
    void clear();
}
