package dev.mnemo;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Operations for tools and operators: run phases on demand, look inside, roll back, forget. */
public interface MemoryAdmin {

    /**
     * Scans the rollout sources into the thread registry.
     *
     * @return how many registry rows were added or changed
     */
    int syncThreads();

    /**
     * Runs Phase 1 synchronously, with the same rules as the startup task.
     *
     * @param currentThreadId the thread running the pipeline, which is never claimed; {@code ""} for none
     * @return what each claimed job did
     */
    Phase1Report runPhase1(String currentThreadId);

    /**
     * What {@link #runPhase1} would do now, without calling a model or writing anything: each
     * registered thread with the reason it would or would not be claimed, and the exact request
     * for the first one (filtered, redacted and fitted to the extraction model's budget; 150,000
     * tokens when no model is configured). Call {@link #syncThreads()} first to see new rollouts.
     *
     * @param currentThreadId the thread running the pipeline, which is never claimed; {@code ""} for none
     * @return each candidate's verdict and, when one would be claimed, the first request
     */
    Phase1Preview previewPhase1(String currentThreadId);

    /**
     * Runs Phase 2 synchronously, with the same rules as the startup task.
     *
     * @return the consolidation's outcome, including why it was skipped
     * @throws IllegalStateException when this engine cannot consolidate ({@link #canConsolidate()})
     */
    Phase2Report runPhase2();

    /**
     * Submits the whole background pipeline (sync threads, prune, Phase 1, Phase 2), with the rules
     * of a startup task and coalesced with one queued, for no session in particular; returns at
     * once. What a scheduler calls, so that a server whose conversations stay open still extracts
     * and consolidates them once they are idle. Also closes conversations idle past the engine's
     * conversation idle timeout.
     *
     * @return the task standing for this run, to wait for or inspect
     */
    StartupTask startPipeline();

    /**
     * Deletes stage-1 memories unused for {@code max_unused_days}.
     *
     * @return how many memories were deleted
     */
    int prune();

    /**
     * The health of the pipeline, for operators: what is queued, what is running, what failed last.
     *
     * @return the status as read now
     */
    MemoryStatus status();

    /**
     * Consolidations kept in the workspace history, newest first.
     *
     * @return at most {@code history_retention} entries; empty before the first consolidation
     */
    List<Consolidation> history();

    /**
     * Restores the workspace as that consolidation left it, as a new history entry.
     *
     * @param consolidationId the id of a kept consolidation, as {@link #history()} lists it
     * @throws IllegalArgumentException when no kept consolidation has that id
     * @throws IllegalStateException while a consolidation is running
     */
    void rollback(String consolidationId);

    /**
     * Forgets everything: stored memories, jobs, the workspace and its history. Threads stay
     * registered with their memory modes, so, as in Codex, the next run extracts the enabled
     * threads' rollouts again; disable or delete threads first to keep them out.
     */
    void clear();

    /**
     * "Refresh now": Phase 1 on every idle conversation it may claim, then Phase 2 at once, past
     * the six-hour success cooldown and any retry backoff, but never past a consolidation another
     * worker is running (then {@link Phase2Outcome#SKIPPED_RUNNING}). Synchronous.
     *
     * @return the report of the Phase 2 run
     * @throws IllegalStateException when this engine cannot consolidate ({@link #canConsolidate()})
     */
    Phase2Report consolidateNow();

    /**
     * What waits for a person's decision ({@code approval = "ask"}), oldest first.
     *
     * @return the pending Phase 1 outputs and notes; empty with {@code approval = "auto"}
     */
    List<PendingMemory> pending();

    /**
     * Approves a pending memory: a Phase 1 output becomes eligible for the next consolidation
     * (which is due at once); a note is written to the memory folder, where the instructions show
     * it and the next consolidation folds it in.
     *
     * @param pendingId the id of a pending memory, as {@link #pending()} lists it
     * @throws IllegalArgumentException when nothing pending has that id
     */
    void approve(String pendingId);

    /**
     * Rejects a pending memory: a Phase 1 output is forgotten as deleting forgets (its thread is
     * disabled, so it is never extracted again, and its text is gone); a note is discarded.
     *
     * @param pendingId the id of a pending memory, as {@link #pending()} lists it
     * @throws IllegalArgumentException when nothing pending has that id
     */
    void reject(String pendingId);

    /**
     * The stored memory of a conversation with its provenance and usage.
     *
     * @param threadId the conversation's thread id
     * @return its memory, or empty when it has none
     */
    Optional<ThreadMemory> memory(String threadId);

    /**
     * The stored memories of these conversations, by thread id (a conversation without one is left
     * out), read in one pass: what {@link #memory} gives for each, without reading the approval
     * queue once per conversation. For a list page.
     *
     * @param threadIds the conversations' thread ids
     * @return their memories in the order of {@code threadIds}, keyed by thread id
     */
    default Map<String, ThreadMemory> memories(Collection<String> threadIds) {
        Map<String, ThreadMemory> memories = new LinkedHashMap<>();
        for (String threadId : threadIds) {
            memory(threadId).ifPresent(memory -> memories.put(threadId, memory));
        }
        return memories;
    }

    /**
     * Whether this engine can run Phase 1 (it has an extraction model). Without one,
     * {@link #consolidateNow()} consolidates what is stored and extracts nothing.
     *
     * @return true when an extraction model is configured; the default implementation says true
     */
    default boolean canExtract() {
        return true;
    }

    /**
     * Whether this engine can run Phase 2 (it has a consolidation model or agent). Without one,
     * {@link #runPhase2()} and {@link #consolidateNow()} throw {@link IllegalStateException}.
     *
     * @return true when a consolidation model or agent is configured; the default implementation says true
     */
    default boolean canConsolidate() {
        return true;
    }

    /**
     * The conversation as recorded, readable and redacted (user, assistant and developer messages,
     * tool calls and their outputs), or empty when its rollout cannot be found.
     *
     * @param threadId the conversation's thread id
     * @return the transcript's lines in order; empty when the rollout cannot be found
     */
    List<TranscriptLine> transcript(String threadId);

    /**
     * What a kept consolidation changed in the memory folder: a unified diff from the entry before
     * it (or from an empty folder, for the oldest).
     *
     * @param consolidationId the id of a kept consolidation, as {@link #history()} lists it
     * @return the unified diff, possibly empty
     * @throws IllegalArgumentException when no kept consolidation has that id
     */
    String consolidationDiff(String consolidationId);

    /**
     * The dead Phase 1 jobs, most recent death first: conversations whose every retry failed for
     * their current rollout version (see {@link DeadJob}), which nothing extracts again until their
     * rollout changes or {@link #retry} / {@link #retryDead} puts them back.
     *
     * @return the dead jobs; empty when there are none
     * @throws UnsupportedOperationException when this admin (or its store) cannot list them
     */
    default List<DeadJob> deadJobs() {
        throw new UnsupportedOperationException(getClass().getName() + " does not list dead Phase 1 jobs");
    }

    /**
     * Puts one conversation's failed Phase 1 job back, dead or still waiting out a retry delay: it
     * is claimable at once with every retry restored, and the thread's log says so. The next
     * Phase 1 run ({@link #runPhase1}, a startup task, {@code mnemo run}) extracts it.
     *
     * @param threadId the conversation whose failed job is put back
     * @return true when a job was put back; false when the conversation has no failed job (it is
     *     healthy, running, or unknown)
     * @throws UnsupportedOperationException when this admin (or its store) cannot retry jobs
     */
    default boolean retry(String threadId) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot retry Phase 1 jobs");
    }

    /**
     * Puts every dead Phase 1 job ({@link #deadJobs()}) back to pending, with every retry restored;
     * each thread's log says so.
     *
     * @return how many jobs were put back
     * @throws UnsupportedOperationException when this admin (or its store) cannot retry jobs
     */
    default int retryDead() {
        throw new UnsupportedOperationException(getClass().getName() + " cannot retry Phase 1 jobs");
    }
}
