package dev.mnemo.internal.engine;

import dev.mnemo.internal.consolidate.Forgetting;
import dev.mnemo.internal.events.BackgroundOperations;
import dev.mnemo.spi.MemoryOperation;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's part of forgetting a thread: the workspace drops the consolidations that used it,
 * at once when a person asked (a delete, a rejection) and in one coalesced background pass when a
 * conversation saw external context on a request's thread. While a forget waits for the
 * consolidation lock, the files may still hold the forgotten text: {@link #servingPaused()} tells
 * the read path to serve no memory until it is done.
 *
 * <p>Each forget is a {@code delete_memory} operation with the conversation as its record, heard on
 * the thread that asked for it; a background pass is a run of its own, and the files it restores
 * are an {@code update_memory} of that run.
 */
final class EngineForgetting {

    /** The engine's logger: these lines keep the name they were logged under before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(DefaultMemoryEngine.class);

    /** The source of a forget's operations. */
    static final String FORGET = BackgroundOperations.FORGET;

    private final Forgetting forgetting;
    private final ConversationNotes notes;
    private final Executor executor;
    private final BackgroundOperations operations;

    /** Threads whose forget waits for the background pass (for a store that records no pending forgets). */
    private final Set<String> awaitingForgetPass = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean forgetPassQueued = new AtomicBoolean();
    /** Background passes queued or running, each completed when its pass ends or is skipped. */
    private final Set<CompletableFuture<Void>> passesInFlight = ConcurrentHashMap.newKeySet();
    /** Set when the engine closes: a pass not started by then is left to the next consolidation. */
    private volatile boolean stopped;

    /**
     * Set when a forget of this engine could not drop its text from the files at once; while the
     * store still lists a pending forget, the instructions carry no memory (the summary may hold the
     * forgotten text). Cleared at the first build that finds none, so the read path asks the store
     * only while a forget waits.
     */
    private volatile boolean forgetPending;

    /**
     * @param notes the note rules: a forgotten conversation's notes go with it
     * @param executor where the background pass runs (the engine's executor)
     * @param operations tells the listeners of each forget and of the background pass's run
     */
    EngineForgetting(Forgetting forgetting, ConversationNotes notes, Executor executor,
            BackgroundOperations operations) {
        this.forgetting = forgetting;
        this.notes = notes;
        this.executor = executor;
        this.operations = operations;
    }

    /** The workspace's forgetting, which Phase 2 completes pending forgets with before it consolidates. */
    Forgetting forgetting() {
        return forgetting;
    }

    /**
     * A thread's memory was forgotten in the store: the workspace drops the consolidations that
     * used it now, so the next instructions, on this server or any other, carry none of its text.
     */
    void forgetNow(String threadId) {
        deleteOperation(threadId, () -> {
            notes.forgetConversation(threadId);
            Forgetting.Outcome outcome = forgetting.afterForget(threadId);
            if (outcome == Forgetting.Outcome.DEFERRED_TO_RUNNING_CONSOLIDATION
                    || outcome == Forgetting.Outcome.DEFERRED_TO_NEXT_CONSOLIDATION) {
                forgetPending = true; // the files still hold its text: instructions carry no memory until it is done
            }
            LOG.debug("forget of thread {} in the workspace: {}", threadId, outcome);
        });
    }

    /**
     * Runs one forget of conversation {@code threadId} and tells the listeners of it as a
     * {@code delete_memory} with the conversation as its record.
     */
    void deleteOperation(String threadId, Runnable forget) {
        deleteOperation(FORGET, Optional.of(threadId), 1, forget);
    }

    /**
     * Runs one deletion and tells the listeners of it as a {@code delete_memory} (with the
     * exception's class as its error type when it throws), on this thread and in the run this
     * thread works for, if any.
     *
     * @param source {@value #FORGET}, or {@code clear} for a home cleared
     * @param recordId the conversation forgotten, when one
     * @param recordCount how many records it deletes
     */
    void deleteOperation(String source, Optional<String> recordId, int recordCount, Runnable forget) {
        BackgroundOperations.Start start = operations.start();
        Optional<String> error = Optional.empty();
        try {
            forget.run();
        } catch (RuntimeException | Error e) {
            error = Optional.of(e.getClass().getName());
            throw e;
        } finally {
            operations.operation(MemoryOperation.Type.DELETE, source, recordId, recordCount, List.of(), start, error,
                    BackgroundOperations.currentRun());
        }
    }


    /** Whether a forget is still waiting for the lock (asked of the store only after one was deferred). */
    boolean servingPaused() {
        if (!forgetPending) {
            return false;
        }
        if (forgetting.pendingOrEmpty().isEmpty()) {
            forgetPending = false;
            return false;
        }
        return true;
    }

    /**
     * The same for a conversation that saw external context, on the request's thread: only the
     * instant part runs here (the store's record of a pending forget; the instructions stop
     * carrying memory), for the thread and each ancestor it pollutes ({@code threads} climbs the
     * spawn graph); dropping the history and pruning its objects runs once for all of them on the
     * engine's executor. The request goes on whatever happens; a forget that failed here is
     * completed by the next consolidation first.
     */
    void forgetAfterPollution(String threadId, StoreThreadRegistry threads) {
        try {
            forgetInBackground(threadId);
        } catch (RuntimeException e) {
            LOG.warn("thread {} is polluted, but recording its forget failed; the next consolidation drops "
                    + "its consolidations first", threadId, e);
        }
        try {
            threads.polluteAncestors(threadId, this::forgetInBackground);
        } catch (RuntimeException e) {
            LOG.warn("thread {} is polluted, but marking the threads that spawned it failed", threadId, e);
        }
    }

    /**
     * The instant part of a forget now (its notes go, a pending forget is recorded), the rest in
     * one coalesced pass on the executor.
     */
    private void forgetInBackground(String threadId) {
        deleteOperation(threadId, () -> {
            notes.forgetConversation(threadId);
            if (forgetting.recordForget(threadId)) {
                forgetPending = true;
                awaitingForgetPass.add(threadId);
                queueForgetPass(threadId);
            }
        });
    }

    /** Queues the background pass, unless one is queued already: a run of its own, started here. */
    private void queueForgetPass(String threadId) {
        if (!forgetPassQueued.compareAndSet(false, true)) {
            return;
        }
        BackgroundOperations.Run run = operations.startRun();
        CompletableFuture<Void> done = new CompletableFuture<>();
        passesInFlight.add(done);
        try {
            executor.execute(() -> {
                try {
                    forgetPass(run);
                } finally {
                    passesInFlight.remove(done);
                    done.complete(null);
                }
            });
        } catch (RejectedExecutionException e) {
            passesInFlight.remove(done);
            forgetPassQueued.set(false);
            run.finish();
            LOG.warn("the executor refused the forget of thread {}; the next consolidation completes it first",
                    threadId);
        }
    }

    /**
     * One pass over every forget recorded since the last: history dropped, objects pruned, once.
     * Files it restored are an {@code update_memory} of its run, counting the conversations forgotten.
     */
    private void forgetPass(BackgroundOperations.Run run) {
        if (stopped) {
            run.finish();
            LOG.info("memory engine closed before its background forget started; the next consolidation "
                    + "completes it first");
            return;
        }
        try {
            run.within(() -> {
                forgetPassQueued.set(false);
                Set<String> known = new TreeSet<>(awaitingForgetPass);
                awaitingForgetPass.removeAll(known);
                BackgroundOperations.Start start = operations.start();
                try {
                    Forgetting.Outcome outcome = forgetting.completePending(known);
                    LOG.debug("background forget of thread(s) {}: {}", known, outcome);
                    if (outcome == Forgetting.Outcome.DROPPED) {
                        operations.forgetsCompleted(known, start, Optional.empty());
                    }
                } catch (RuntimeException e) {
                    LOG.warn("completing the forget of thread(s) {} failed; the next consolidation completes it first",
                            known, e);
                    operations.forgetsCompleted(known, start, Optional.of(e.getClass().getName()));
                }
                return null;
            });
        } finally {
            run.finish();
        }
    }

    /**
     * When the engine closes: waits until {@code deadlineNanos} ({@link System#nanoTime()}) for the
     * background passes queued or running, so none still rewrites the workspace once its owner has
     * closed it; a pass not started by then does not start (its forget stays recorded in the store,
     * and the next consolidation completes it first).
     */
    void windDown(long deadlineNanos) {
        for (CompletableFuture<Void> pass : List.copyOf(passesInFlight)) {
            try {
                pass.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (TimeoutException e) {
                LOG.info("memory engine closing: a background forget still runs after the close timeout");
                break;
            } catch (ExecutionException e) {
                // the pass logs its own failure
            }
        }
        stopped = true;
    }
}
