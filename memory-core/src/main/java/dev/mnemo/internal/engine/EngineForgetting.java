package dev.mnemo.internal.engine;

import dev.mnemo.internal.consolidate.Forgetting;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's part of forgetting a thread: the workspace drops the consolidations that used it,
 * at once when a person asked (a delete, a rejection) and in one coalesced background pass when a
 * conversation saw external context on a request's thread. While a forget waits for the
 * consolidation lock, the files may still hold the forgotten text: {@link #servingPaused()} tells
 * the read path to serve no memory until it is done.
 */
final class EngineForgetting {

    /** The engine's logger: these lines keep the name they were logged under before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(DefaultMemoryEngine.class);

    private final Forgetting forgetting;
    private final ConversationNotes notes;
    private final Executor executor;

    /** Threads whose forget waits for the background pass (for a store that records no pending forgets). */
    private final Set<String> awaitingForgetPass = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean forgetPassQueued = new AtomicBoolean();

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
     */
    EngineForgetting(Forgetting forgetting, ConversationNotes notes, Executor executor) {
        this.forgetting = forgetting;
        this.notes = notes;
        this.executor = executor;
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
        notes.forgetConversation(threadId);
        Forgetting.Outcome outcome = forgetting.afterForget(threadId);
        if (outcome == Forgetting.Outcome.DEFERRED_TO_RUNNING_CONSOLIDATION
                || outcome == Forgetting.Outcome.DEFERRED_TO_NEXT_CONSOLIDATION) {
            forgetPending = true; // the files still hold its text: instructions carry no memory until it is done
        }
        LOG.debug("forget of thread {} in the workspace: {}", threadId, outcome);
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
        notes.forgetConversation(threadId);
        if (!forgetting.recordForget(threadId)) {
            return;
        }
        forgetPending = true;
        awaitingForgetPass.add(threadId);
        if (forgetPassQueued.compareAndSet(false, true)) {
            try {
                executor.execute(this::forgetPass);
            } catch (RejectedExecutionException e) {
                forgetPassQueued.set(false);
                LOG.warn("the executor refused the forget of thread {}; the next consolidation completes it first",
                        threadId);
            }
        }
    }

    /** One pass over every forget recorded since the last: history dropped, objects pruned, once. */
    private void forgetPass() {
        forgetPassQueued.set(false);
        Set<String> known = new TreeSet<>(awaitingForgetPass);
        awaitingForgetPass.removeAll(known);
        try {
            Forgetting.Outcome outcome = forgetting.completePending(known);
            LOG.debug("background forget of thread(s) {}: {}", known, outcome);
        } catch (RuntimeException e) {
            LOG.warn("completing the forget of thread(s) {} failed; the next consolidation completes it first", known,
                    e);
        }
    }
}
