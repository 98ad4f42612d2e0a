package dev.mnemo.spi;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.Phase1JobReport;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.TokenUsage;
import java.util.List;
import java.util.Optional;

/**
 * Hears what the background pipeline does, for progress displays and metrics. Every method has an
 * empty default; implement the ones you need. Called on the pipeline's threads: keep it quick and
 * thread-safe. An exception thrown here is logged and otherwise ignored.
 */
public interface MemoryEventListener {

    /**
     * A gate or the rate-limit guard stopped a startup run.
     *
     * @param reason what stopped it
     */
    default void startupSkipped(SkipReason reason) {}

    /**
     * The rollout sources were scanned; {@code changed} thread rows were added or updated.
     *
     * @param changed how many thread rows were added or updated; 0 when nothing changed
     */
    default void threadsSynced(int changed) {}

    /**
     * Phase 1 claimed {@code count} rollouts.
     *
     * @param count how many rollouts were claimed, at least 0
     */
    default void phase1Claimed(int count) {}

    /**
     * One Phase 1 job ended.
     *
     * @param outcome how it ended
     * @param error the failure reason, for failed jobs
     * @param threadId the thread whose rollout the job extracted
     */
    default void phase1JobFinished(String threadId, Phase1JobOutcome outcome, Optional<String> error) {}

    /**
     * One Phase 1 job ended, with its duration and tokens: what the engine calls. The default hands
     * it to {@link #phase1JobFinished(String, Phase1JobOutcome, Optional)}, so a listener written
     * for that one still hears every job; override one of the two, not both.
     *
     * @param report the job's thread, outcome, error, duration and tokens
     */
    default void phase1JobFinished(Phase1JobReport report) {
        phase1JobFinished(report.threadId(), report.outcome(), report.error());
    }

    /**
     * Phase 2 reached a step (Codex's step and reason names, e.g. {@code claimed}, {@code agent_spawned}).
     *
     * @param step the step's name, such as {@code claimed}
     */
    default void phase2Step(String step) {}

    /**
     * Phase 2 selected its inputs: the memories of these conversations, sorted by thread id, are
     * what the consolidation works from this time.
     *
     * @param threadIds the selected conversations' thread ids, sorted; empty when nothing was selected
     */
    default void phase2InputsSelected(List<String> threadIds) {}

    /**
     * The default consolidation agent ran one tool in the memory folder.
     *
     * @param tool the tool's name, e.g. {@code write_file}
     * @param target the file, folder or query it named (empty when it named none)
     * @param error why it failed, when it did (the agent sees the same message)
     */
    default void consolidationToolCalled(String tool, String target, Optional<String> error) {}

    /**
     * Phase 2 ended.
     *
     * @param outcome how it ended
     * @param failure the failure reason, for a failed run
     */
    default void phase2Finished(Phase2Outcome outcome, Optional<String> failure) {}

    /**
     * An answer in conversation {@code threadId} cited memories; {@code counted} of them were
     * stored memories whose usage count went up (unknown ids are ignored). Called on the thread
     * that handed in the answer.
     *
     * @param threadId the conversation that handed in the answer
     * @param rolloutIds the cited memories' ids, as the answer gave them
     * @param counted how many of them were stored memories whose usage went up
     */
    default void memoriesCited(String threadId, List<String> rolloutIds, int counted) {}

    /**
     * A startup run ended.
     *
     * @param report what the run did, phase by phase
     */
    default void startupFinished(StartupReport report) {}

    /** Phase 1's extraction calls, as {@link #modelCalled} names them. */
    String PHASE1 = "phase1";

    /** Phase 2's consolidation agent's calls (the default agent's), as {@link #modelCalled} names them. */
    String PHASE2 = "phase2";

    /**
     * The pipeline's model answered one call, from a startup task, {@code admin().runPhase1()} /
     * {@code runPhase2()} or a scheduled run alike: what token meters count. A failed call is not
     * reported. A custom {@link ConsolidationAgent} reports its usage only in its result.
     *
     * @param phase {@link #PHASE1} or {@link #PHASE2}
     * @param usage the tokens the call spent
     */
    default void modelCalled(String phase, TokenUsage usage) {}

    /**
     * The day's extraction budget ({@code max_extraction_tokens_per_day}) stopped Phase 1: before
     * its claim ({@code deferredJobs} 0), or part-way, after {@code deferredJobs} claimed jobs found
     * no room and were released unrun. Phase 1 resumes at {@link ExtractionBudget#resetsAt()}.
     *
     * @param budget the day's budget, its spending and when it resets
     * @param deferredJobs how many claimed jobs were released unrun; 0 when it stopped before the claim
     */
    default void phase1BudgetExhausted(ExtractionBudget budget, int deferredJobs) {}

    /**
     * A background run (a startup task, {@code admin().runPhase1()} / {@code runPhase2()}, a
     * scheduled run) is about to start. Called on the thread that started it, before it is handed to
     * the executor, so a listener can remember that thread's context (a trace span) under
     * {@code runId}; the run's {@link MemoryOperation}s carry the same id, and {@link #runFinished}
     * says when to forget it.
     *
     * @param runId the run's id, unique in this engine
     */
    default void runStarted(String runId) {}

    /**
     * The background run {@code runId} ended, however it ended.
     *
     * @param runId the id {@link #runStarted} was given
     */
    default void runFinished(String runId) {}

    /**
     * One operation on memory ended: instructions built, a memory tool call, a note or a stage-1
     * output stored, a consolidation that changed the folder, a forget or a clear. Read-path
     * operations are heard on the caller's thread, background ones on the pipeline's.
     *
     * @param operation what was done, by which run, and how long it took
     */
    default void memoryOperation(MemoryOperation operation) {}
}
