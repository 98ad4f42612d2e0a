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
 * before them left them: a state that never saw the thread. The selection flags follow that state,
 * so the next Phase 2 sees the memories consolidated since as new and adds them back; it is due at
 * once, past the success cooldown. No rollback can bring the text back: the entries that held it
 * are gone, with their objects.
 */
public final class Forgetting {

    private static final Logger LOG = LoggerFactory.getLogger(Forgetting.class);

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

    public Forgetting(MemoryStore store, MemoryWorkspace workspace, Clock clock, Supplier<String> workerId) {
        this.store = Objects.requireNonNull(store, "store");
        this.workspace = Objects.requireNonNull(workspace, "workspace");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
    }

    /** After the store forgot {@code threadId}: drops what the workspace still holds of it. */
    public Outcome afterForget(String threadId) {
        // 1. Did a kept consolidation use it? Nothing else in the workspace holds its text.
        if (workspace.history().stream().noneMatch(c -> c.threadIds().contains(threadId))) {
            return Outcome.NOT_CONSOLIDATED;
        }
        // 2. The Phase 2 lock, past the cooldown: a forget does not wait hours.
        JobClaim claim;
        try {
            claim = store.tryClaimPhase2JobNow(workerId.get(), Phase2Runner.JOB_LEASE, clock.instant());
        } catch (UnsupportedOperationException e) {
            LOG.warn("{}; thread {}'s consolidations are dropped when the next one starts", e.getMessage(), threadId);
            return Outcome.DEFERRED_TO_NEXT_CONSOLIDATION;
        }
        if (!claim.isClaimed()) {
            LOG.info("thread {} was forgotten while a consolidation runs ({}); it drops the thread's history entries "
                    + "before it finishes", threadId, claim.outcome());
            return Outcome.DEFERRED_TO_RUNNING_CONSOLIDATION;
        }
        // 3. Drop the entries and restore the files; 4. the lock goes back with the re-run due now.
        Set<String> forgotten = Set.of();
        try {
            forgotten = dropForgottenHistory(Set.of(threadId));
        } finally {
            releaseDueNow(claim.token(), forgotten.isEmpty() ? Set.of(threadId) : forgotten);
        }
        return Outcome.DROPPED;
    }

    /**
     * Under the Phase 2 lock: drops the oldest kept consolidation that used a forgotten thread and
     * every newer one, restores the files, and points the selection flags at the restored state.
     *
     * @return the forgotten threads found in the history (empty: nothing was dropped)
     */
    Set<String> dropForgottenHistory() {
        return dropForgottenHistory(Set.of());
    }

    /** The same, with {@code known} counted as forgotten whatever the store now says of them. */
    private Set<String> dropForgottenHistory(Set<String> known) {
        List<Consolidation> history = workspace.history(); // newest first
        Set<String> forgotten = new TreeSet<>(known);
        Map<String, Boolean> asked = new HashMap<>(); // one store lookup per thread, however many entries name it
        Consolidation oldest = null;
        for (Consolidation entry : history) {
            boolean used = false;
            for (String threadId : entry.threadIds()) {
                if (forgotten.contains(threadId) || asked.computeIfAbsent(threadId, this::isForgotten)) {
                    forgotten.add(threadId);
                    used = true;
                }
            }
            if (used) {
                oldest = entry;
            }
        }
        if (oldest == null) {
            return Set.of();
        }
        Optional<ConsolidationRecord> restored;
        try {
            restored = workspace.dropHistoryFrom(oldest.id());
        } catch (UnsupportedOperationException e) {
            LOG.warn("{}; squashing the whole history instead, which keeps the current files", e.getMessage());
            workspace.squashHistory();
            return forgotten;
        }
        store.replacePhase2Selection(restored.map(ConsolidationRecord::selected).orElse(List.of()));
        LOG.info("forgot thread(s) {}: history dropped from consolidation {} on, files restored to {}", forgotten,
                oldest.id(), restored.map(ConsolidationRecord::id).orElse("no consolidation"));
        return forgotten;
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
