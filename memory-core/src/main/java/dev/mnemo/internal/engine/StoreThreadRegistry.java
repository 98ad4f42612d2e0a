package dev.mnemo.internal.engine;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import dev.mnemo.ThreadRegistry;
import dev.mnemo.spi.MemoryStore;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link ThreadRegistry} over the store, reading the engine's clock. */
final class StoreThreadRegistry implements ThreadRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(StoreThreadRegistry.class);

    private final MemoryStore store;
    private final Clock clock;

    StoreThreadRegistry(MemoryStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
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
    }

    @Override
    public void delete(String threadId) {
        if (store.deleteThread(Objects.requireNonNull(threadId, "threadId"), clock.instant())) {
            LOG.info("thread {} deleted; its memory is forgotten", threadId);
        }
    }
}
