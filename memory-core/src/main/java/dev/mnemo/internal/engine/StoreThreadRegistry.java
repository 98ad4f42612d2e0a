package dev.mnemo.internal.engine;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.ThreadInfo;
import dev.mnemo.ThreadRegistry;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.SessionStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ThreadRegistry} over the store, reading the engine's clock.
 *
 * <p>It follows the spawn graph where the store keeps one: deleting a thread deletes its spawned
 * sub-agent threads first (deepest first, each as {@link #delete} deletes one), and polluting a
 * sub-agent thread pollutes every thread above it up to its root, whose context the sub-agent's
 * results reached. A store without a spawn graph has no sub-agent edges to follow.
 */
final class StoreThreadRegistry implements ThreadRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(StoreThreadRegistry.class);

    /** Parents walked at most when pollution climbs the spawn graph (Codex's lineage bound). */
    static final int MAX_LINEAGE_DEPTH = 64;

    private final MemoryStore store;
    private final Clock clock;
    private final SessionStore sessions;
    private final Hooks hooks;

    /**
     * What the registry tells the rest of the engine.
     *
     * @param afterForget told of each thread whose memory the store just forgot, to drop what the
     *     workspace still holds of it
     * @param deleteState deletes what a deleted thread keeps outside the store (its message history
     *     lines, its goal); run before the store's rows go, so a failure leaves the thread to retry
     * @param afterDelete told of each thread deleted, to delete what else is kept of it (its logs)
     * @param journal a line for the thread's own logs: why its memory was forgotten or disabled
     */
    record Hooks(Consumer<String> afterForget, Consumer<String> deleteState, Consumer<String> afterDelete,
            BiConsumer<String, String> journal) {}

    /**
     * @param sessions the recorder's session store: rollouts it holds are Mnemo's own and are
     *     deleted with their thread; rollouts elsewhere (a Codex home) are never touched
     */
    StoreThreadRegistry(MemoryStore store, Clock clock, SessionStore sessions, Hooks hooks) {
        this.store = store;
        this.clock = clock;
        this.sessions = sessions;
        this.hooks = hooks;
    }

    /** Logs {@code message} about a thread, to SLF4J and to the thread's own logs. */
    private void say(String threadId, String message) {
        LOG.info("thread {} {}", threadId, message);
        hooks.journal().accept(threadId, message);
    }

    @Override
    public void upsert(ThreadInfo thread) {
        store.upsertThread(Objects.requireNonNull(thread, "thread"));
    }

    @Override
    public Optional<ThreadInfo> get(String threadId) {
        return store.thread(Objects.requireNonNull(threadId, "threadId"));
    }

    @Override
    public List<ThreadInfo> list() {
        return store.threads();
    }

    @Override
    public boolean markPolluted(String threadId) {
        boolean changed = pollute(Objects.requireNonNull(threadId, "threadId"));
        polluteAncestors(threadId);
        return changed;
    }

    private boolean pollute(String threadId) {
        return pollute(threadId, hooks.afterForget());
    }

    private boolean pollute(String threadId, Consumer<String> afterForget) {
        boolean changed = store.markThreadPolluted(threadId, clock.instant());
        if (changed) {
            say(threadId, "marked polluted; its memory is forgotten");
            afterForget.accept(threadId);
        }
        return changed;
    }

    /**
     * Marks polluted every thread that spawned {@code threadId}, directly or not, up to its root:
     * what a polluted sub-agent read reached them through its results. (Codex pollutes only the
     * thread itself; see docs/codex-compatibility.md.) Walks at most {@link #MAX_LINEAGE_DEPTH}
     * parents and never one twice.
     */
    void polluteAncestors(String threadId) {
        polluteAncestors(threadId, hooks.afterForget());
    }

    /**
     * The same, telling {@code afterForget} (rather than the registry's hook) of each thread whose
     * memory the store forgot: the request path hands the workspace's part to the background.
     */
    void polluteAncestors(String threadId, Consumer<String> afterForget) {
        Set<String> seen = new HashSet<>();
        seen.add(threadId);
        String current = threadId;
        for (int depth = 0; depth < MAX_LINEAGE_DEPTH; depth++) {
            Optional<String> parent = parentOf(current);
            if (parent.isEmpty() || !seen.add(parent.get())) {
                return;
            }
            current = parent.get();
            if (pollute(current, afterForget)) {
                say(current, "marked polluted: its sub-agent thread " + threadId + " saw external context");
            }
        }
    }

    private Optional<String> parentOf(String threadId) {
        try {
            return store.spawnParent(threadId);
        } catch (UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    @Override
    public void setMemoryMode(String threadId, MemoryMode mode) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(mode, "mode");
        if (!store.setThreadMemoryMode(threadId, mode, clock.instant())) {
            throw new IllegalArgumentException("no thread with id " + threadId);
        }
        say(threadId, "memory mode set to " + mode.dbValue()
                + (mode == MemoryMode.ENABLED ? "" : "; its memory is forgotten and it is not extracted again"));
        if (mode != MemoryMode.ENABLED) {
            hooks.afterForget().accept(threadId);
        }
    }

    /**
     * The application ended the conversation ({@code MemorySession.end()}): the store marks it
     * finished now, so Phase 1 need not wait for its idle window, and a log line says so. A store that
     * keeps no end marks leaves the conversation under the idle rule; that is logged, not thrown.
     *
     * @return whether the store marked it (false: no such thread, or a store without end marks)
     */
    boolean markEnded(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        Instant now = clock.instant();
        try {
            if (!store.markThreadEnded(threadId, now)) {
                LOG.debug("conversation {} ended before anything of it was recorded: nothing to extract", threadId);
                return false;
            }
        } catch (UnsupportedOperationException e) {
            LOG.info("conversation {} ended, but it waits for min_rollout_idle_hours: {}", threadId, e.getMessage());
            return false;
        }
        // Not journaled in the thread's own logs: ending often comes right before a delete, and a
        // queued log line would outlive the thread.
        LOG.info("thread {} ended by the application at {}; Phase 1 may extract it without waiting for"
                + " min_rollout_idle_hours", threadId, now);
        return true;
    }

    /** Deletes the thread's spawned sub-agent threads, deepest first, then the thread itself. */
    @Override
    public void delete(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        List<String> descendants = new ArrayList<>(descendantsOf(threadId));
        Collections.reverse(descendants);
        for (String descendant : descendants) {
            deleteOne(descendant);
        }
        deleteOne(threadId);
    }

    private List<String> descendantsOf(String threadId) {
        try {
            return store.spawnDescendants(threadId, Optional.empty());
        } catch (UnsupportedOperationException e) {
            return List.of();
        }
    }

    private void deleteOne(String threadId) {
        Optional<ThreadInfo> thread = store.thread(threadId);
        // The rollout first: a thread sync running meanwhile must not find it and register the
        // thread again; and when it cannot be deleted, nothing is forgotten yet and the caller may retry.
        thread.ifPresent(this::deleteRollout);
        hooks.deleteState().accept(threadId);
        if (store.deleteThread(threadId, clock.instant())) {
            LOG.info("thread {} deleted; its memory is forgotten", threadId);
        }
        hooks.afterForget().accept(threadId);
        hooks.afterDelete().accept(threadId);
    }

    private void deleteRollout(ThreadInfo thread) {
        try {
            if (sessions.delete(thread)) {
                LOG.info("deleted recorded rollout {}", thread.rolloutPath());
            }
        } catch (IOException e) {
            throw new MemoryStoreException("thread deleted, but its recorded rollout " + thread.rolloutPath()
                    + " could not be deleted: " + e.getMessage(), e);
        }
    }
}
