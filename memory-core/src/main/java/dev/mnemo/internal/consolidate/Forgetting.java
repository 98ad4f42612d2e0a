package dev.mnemo.internal.consolidate;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryMode;
import dev.mnemo.Phase2FailureReason;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.MemoryWorkspace;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a forget take effect in the workspace at once, without a model. A thread is forgotten when
 * it is deleted, polluted or disabled; the store drops its memory at once, but the consolidated
 * files and their history may still hold its text. The consolidations that used it, and every
 * newer one, are dropped from the history, and the files are restored as the newest consolidation
 * before them left them: a state that never saw the thread. When the thread's first consolidation
 * (as the store recorded it) is older than the kept history, no kept state is known to be free of
 * it, and the whole history goes with the generated files. The selection flags follow that state,
 * so the next Phase 2 sees the memories consolidated since as new and adds them back; it is due at
 * once, past the success cooldown. No rollback can bring the text back: the entries that held it
 * are gone, with their objects.
 *
 * <p>A forget is recorded in the store as pending before the workspace is touched
 * ({@link #recordForget}), so one that meets a running consolidation, or whose process dies, is
 * completed by the next pass of any process ({@link #completePending}).
 */
public final class Forgetting {

    private static final Logger LOG = LoggerFactory.getLogger(Forgetting.class);
    /** Passes {@link #completePending} makes at most, when forgets keep arriving while it holds the lock. */
    private static final int MAX_PASSES = 3;

    /** What became of a forget in the workspace. */
    public enum Outcome {
        /** No kept consolidation used the thread: nothing in the workspace holds its text. */
        NOT_CONSOLIDATED,
        /** The history entries that used it were dropped and the files restored. */
        DROPPED,
        /**
         * A consolidation is running elsewhere; it drops them itself before it finishes, and the
         * files keep their current state until then.
         */
        DEFERRED_TO_RUNNING_CONSOLIDATION,
        /** The store cannot claim Phase 2 past its cooldown; the next consolidation drops them first. */
        DEFERRED_TO_NEXT_CONSOLIDATION
    }

    private final MemoryStore store;
    private final MemoryWorkspace workspace;
    private final Clock clock;
    private final Supplier<String> workerId;

    /**
     * @param store the thread registry, the Phase 2 lock and selection, and the record of
     *     consolidated threads and pending forgets: three of its roles, so the composite
     */
    public Forgetting(MemoryStore store, MemoryWorkspace workspace, Clock clock, Supplier<String> workerId) {
        this.store = Objects.requireNonNull(store, "store");
        this.workspace = Objects.requireNonNull(workspace, "workspace");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
    }

    /** After the store forgot {@code threadId}: drops what the workspace still holds of it. */
    public Outcome afterForget(String threadId) {
        if (!recordForget(threadId)) {
            return Outcome.NOT_CONSOLIDATED;
        }
        return completePending(Set.of(threadId));
    }

    /**
     * The instant part of a forget: whether a consolidation may have used {@code threadId} (the
     * kept history names it, or the store recorded it as consolidated, however much history is
     * kept), and if so a durable pending forget, which every later Phase 2 run completes first
     * whatever becomes of this call. Cheap: one store read and one write, no workspace change.
     *
     * @return {@code false} when nothing in the workspace can hold the thread's text
     */
    public boolean recordForget(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        boolean recorded;
        try {
            recorded = store.firstConsolidated(threadId).isPresent();
        } catch (UnsupportedOperationException e) {
            recorded = false; // the kept history is all there is to go by
        }
        if (!recorded && workspace.history().stream().noneMatch(c -> c.threadIds().contains(threadId))) {
            return false;
        }
        try {
            store.addPendingForget(threadId, clock.instant());
        } catch (UnsupportedOperationException e) {
            LOG.debug("{}; the forget of thread {} is completed now or by the next consolidation", e.getMessage(),
                    threadId);
        }
        return true;
    }

    /**
     * The heavy part: takes the Phase 2 lock past its cooldown and backoff, drops the history of
     * every pending forget ({@code known} counted as pending too), restores the files, gives the
     * lock back due at once and marks the forgets complete. When the lock is held by a running
     * consolidation, that run completes them before it lets the lock go, and looks again after.
     * Forgets recorded while this pass held the lock are taken by a further pass. One pass at a
     * time per instance: the engine's forget and its Phase 2 runner share one, so a caller whose
     * forget another thread of this engine is completing waits for it rather than returning early.
     */
    public synchronized Outcome completePending(Set<String> known) {
        Outcome outcome = Outcome.NOT_CONSOLIDATED;
        Set<String> extra = Set.copyOf(known);
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            if (extra.isEmpty() && pendingOrEmpty().isEmpty()) {
                return outcome;
            }
            JobClaim claim;
            try {
                claim = store.tryClaimPhase2JobNow(workerId.get(), Phase2Runner.JOB_LEASE, clock.instant());
            } catch (UnsupportedOperationException e) {
                LOG.warn("{}; the forgotten threads' consolidations are dropped when the next one starts",
                        e.getMessage());
                return Outcome.DEFERRED_TO_NEXT_CONSOLIDATION;
            }
            if (!claim.isClaimed()) {
                LOG.info("a forget waits for the running consolidation ({}); it completes it before it ends",
                        claim.outcome());
                return Outcome.DEFERRED_TO_RUNNING_CONSOLIDATION;
            }
            Set<String> forgotten = Set.of();
            try {
                forgotten = dropPending(extra);
            } finally {
                releaseDueNow(claim.token(), forgotten.isEmpty() ? extra : forgotten);
            }
            if (!forgotten.isEmpty()) {
                outcome = Outcome.DROPPED;
            }
            extra = Set.of();
        }
        return outcome;
    }

    /** The pending forgets, or none when the store keeps no such record. */
    public Set<String> pendingOrEmpty() {
        try {
            return store.pendingForgets();
        } catch (UnsupportedOperationException e) {
            return Set.of();
        }
    }

    /**
     * Under the Phase 2 lock: drops what the workspace holds of every pending forget (and of
     * {@code known}, and of any thread a kept entry used that is no longer enabled), then marks them
     * complete in the store.
     *
     * @return the forgotten threads whose consolidations were dropped (empty: nothing was dropped)
     */
    Set<String> dropPending(Set<String> known) {
        Set<String> pending = new TreeSet<>(pendingOrEmpty());
        pending.addAll(known);
        Set<String> forgotten = dropForgottenHistory(pending);
        Set<String> done = new TreeSet<>(pending);
        done.addAll(forgotten);
        if (!done.isEmpty()) {
            try {
                store.completeForgets(done);
            } catch (UnsupportedOperationException e) {
                LOG.debug("{}", e.getMessage());
            }
        }
        return forgotten;
    }

    /**
     * Under the Phase 2 lock: drops the oldest kept consolidation that used a forgotten thread and
     * every newer one, restores the files, and points the selection flags at the restored state.
     * When a forgotten thread was first consolidated before the oldest kept entry (trimmed history,
     * or {@code history_retention = 0}), no kept state is known to be free of it: the whole history
     * goes and the generated files are removed.
     *
     * @return the forgotten threads found (empty: nothing was dropped)
     */
    private Set<String> dropForgottenHistory(Set<String> known) {
        List<Consolidation> history = workspace.history(); // newest first
        Set<String> forgotten = new TreeSet<>();
        Map<String, Boolean> asked = new HashMap<>(); // one store lookup per thread, however many entries name it
        Consolidation oldest = null;
        for (Consolidation entry : history) {
            boolean used = false;
            for (String threadId : entry.threadIds()) {
                if (known.contains(threadId) || asked.computeIfAbsent(threadId, this::isForgotten)) {
                    forgotten.add(threadId);
                    used = true;
                }
            }
            if (used) {
                oldest = entry;
            }
        }
        Optional<Instant> oldestKept = history.isEmpty() ? Optional.empty()
                : Optional.of(history.get(history.size() - 1).at());
        Set<String> beforeKept = new TreeSet<>();
        for (String threadId : known) {
            firstConsolidatedOrEmpty(threadId)
                    .filter(first -> oldestKept.isEmpty()
                            || first.getEpochSecond() < oldestKept.get().getEpochSecond())
                    .ifPresent(first -> beforeKept.add(threadId));
        }
        if (!beforeKept.isEmpty()) {
            forgotten.addAll(beforeKept);
            workspace.dropWholeHistory();
            store.replacePhase2Selection(List.of());
            LOG.info("forgot thread(s) {}: {} first used by a consolidation older than the kept history, so the whole "
                    + "history was dropped and the generated memory files removed", forgotten, beforeKept);
            return forgotten;
        }
        if (oldest == null) {
            return Set.of();
        }
        Optional<ConsolidationRecord> restored;
        try {
            restored = workspace.dropHistoryFrom(oldest.id());
        } catch (UnsupportedOperationException e) {
            LOG.warn("{}; dropping the whole history instead", e.getMessage());
            workspace.dropWholeHistory();
            store.replacePhase2Selection(List.of());
            return forgotten;
        }
        store.replacePhase2Selection(restored.map(ConsolidationRecord::selected).orElse(List.of()));
        LOG.info("forgot thread(s) {}: history dropped from consolidation {} on, files restored to {}", forgotten,
                oldest.id(), restored.map(ConsolidationRecord::id).orElse("no consolidation"));
        return forgotten;
    }

    private Optional<Instant> firstConsolidatedOrEmpty(String threadId) {
        try {
            return store.firstConsolidated(threadId);
        } catch (UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /** Deleted, polluted or disabled: its memory must be in no file. */
    private boolean isForgotten(String threadId) {
        return store.thread(threadId).map(ThreadInfo::memoryMode).map(mode -> mode != MemoryMode.ENABLED)
                .orElse(true);
    }

    /**
     * Gives the lock back as a failure with no backoff: a failed job is exempt from the success
     * cooldown, so the next run (a startup task, the schedule) re-consolidates at once, and the
     * job's last error says why it is due.
     */
    void releaseDueNow(String token, Set<String> forgotten) {
        String reason = Phase2FailureReason.FORGET_PENDING.code() + ": re-consolidating after forgetting " + forgotten;
        try {
            if (!store.markPhase2Failed(token, reason, Duration.ZERO, clock.instant())) {
                LOG.warn("the consolidation job was no longer ours when the forget released it");
            }
        } catch (RuntimeException e) {
            LOG.warn("could not release the consolidation job after a forget; it is free when its lease ends", e);
        }
    }
}
