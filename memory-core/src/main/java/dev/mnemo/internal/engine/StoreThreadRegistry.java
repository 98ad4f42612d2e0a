package dev.mnemo.internal.engine;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.ThreadInfo;
import dev.mnemo.ThreadRegistry;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.SessionStore;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link ThreadRegistry} over the store, reading the engine's clock. */
final class StoreThreadRegistry implements ThreadRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(StoreThreadRegistry.class);

    private final MemoryStore store;
    private final Clock clock;
    private final SessionStore sessions;
    private final Consumer<String> afterForget;
    private final Consumer<String> deleteState;

    /**
     * @param sessions the recorder's session store: rollouts it holds are Mnemo's own and are
     *     deleted with their thread; rollouts elsewhere (a Codex home) are never touched
     * @param afterForget told of each thread whose memory the store just forgot, to drop what the
     *     workspace still holds of it
     * @param deleteState deletes what a deleted thread keeps outside the store (its message history
     *     lines, its goal); run before the store's rows go, so a failure leaves the thread to retry
     */
    StoreThreadRegistry(MemoryStore store, Clock clock, SessionStore sessions, Consumer<String> afterForget,
            Consumer<String> deleteState) {
        this.store = store;
        this.clock = clock;
        this.sessions = sessions;
        this.afterForget = afterForget;
        this.deleteState = deleteState;
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
        boolean changed = store.markThreadPolluted(Objects.requireNonNull(threadId, "threadId"), clock.instant());
        if (changed) {
            LOG.info("thread {} marked polluted; its memory is forgotten", threadId);
            afterForget.accept(threadId);
        }
        return changed;
    }

    @Override
    public void setMemoryMode(String threadId, MemoryMode mode) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(mode, "mode");
        if (!store.setThreadMemoryMode(threadId, mode, clock.instant())) {
            throw new IllegalArgumentException("no thread with id " + threadId);
        }
        LOG.info("thread {} memory mode set to {}", threadId, mode.dbValue());
        if (mode != MemoryMode.ENABLED) {
            afterForget.accept(threadId);
        }
    }

    @Override
    public void delete(String threadId) {
        Optional<ThreadInfo> thread = store.thread(Objects.requireNonNull(threadId, "threadId"));
        // The rollout first: a thread sync running meanwhile must not find it and register the
        // thread again; and when it cannot be deleted, nothing is forgotten yet and the caller may retry.
        thread.ifPresent(this::deleteRollout);
        deleteState.accept(threadId);
        if (store.deleteThread(threadId, clock.instant())) {
            LOG.info("thread {} deleted; its memory is forgotten", threadId);
        }
        afterForget.accept(threadId);
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
