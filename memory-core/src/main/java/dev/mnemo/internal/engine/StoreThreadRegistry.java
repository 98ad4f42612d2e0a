package dev.mnemo.internal.engine;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.ThreadInfo;
import dev.mnemo.ThreadRegistry;
import dev.mnemo.spi.MemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    private final Path ownSessions;

    /**
     * @param ownSessions the recorder's sessions folder: rollouts under it are Mnemo's own and are
     *     deleted with their thread; rollouts elsewhere (a Codex home) are never touched
     */
    StoreThreadRegistry(MemoryStore store, Clock clock, Path ownSessions) {
        this.store = store;
        this.clock = clock;
        this.ownSessions = ownSessions.toAbsolutePath().normalize();
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
        Optional<ThreadInfo> thread = store.thread(Objects.requireNonNull(threadId, "threadId"));
        if (store.deleteThread(threadId, clock.instant())) {
            LOG.info("thread {} deleted; its memory is forgotten", threadId);
        }
        thread.map(ThreadInfo::rolloutPath).map(p -> p.toAbsolutePath().normalize())
                .filter(p -> p.startsWith(ownSessions))
                .ifPresent(this::deleteRollout);
    }

    private void deleteRollout(Path rollout) {
        try {
            if (Files.deleteIfExists(rollout)) {
                LOG.info("deleted recorded rollout {}", rollout);
            }
        } catch (IOException e) {
            throw new MemoryStoreException("thread deleted, but its recorded rollout " + rollout
                    + " could not be deleted: " + e.getMessage(), e);
        }
    }
}
