package dev.mnemo.internal.startup;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.RolloutSource;
import dev.mnemo.spi.ThreadStore;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Startup step 3: rollout sources scanned into the thread registry. */
public final class ThreadSync {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadSync.class);

    private ThreadSync() {}

    /**
     * Upserts what each source reports as new or changed. A memory mode set in the registry (by the
     * user or by pollution) is never loosened by a scan: the stricter of the two modes wins. A
     * conversation's end mark is the store's alone (a scan cannot see it), so it never counts as a change.
     *
     * @return rows added or changed
     */
    public static int sync(ThreadStore store, List<RolloutSource> sources) {
        int changed = 0;
        for (RolloutSource source : sources) {
            List<ThreadInfo> scanned;
            try {
                scanned = source.scan();
            } catch (RuntimeException e) {
                LOG.warn("scanning rollout source {} failed; its threads are not updated this time", source.name(), e);
                continue;
            }
            for (ThreadInfo thread : scanned) {
                Optional<ThreadInfo> existing = store.thread(thread.id());
                ThreadInfo merged = existing.map(old -> thread.toBuilder()
                        .memoryMode(stricter(old.memoryMode(), thread.memoryMode()))
                        .endedAt(old.endedAt().orElse(null)) // the store keeps its end mark: not a change
                        .build()).orElse(thread);
                if (existing.isEmpty() || !existing.get().equals(merged)) {
                    store.upsertThread(merged);
                    changed++;
                }
            }
        }
        if (changed > 0) {
            LOG.info("thread registry: {} thread(s) added or updated from rollout sources", changed);
        }
        return changed;
    }

    private static MemoryMode stricter(MemoryMode a, MemoryMode b) {
        if (a == MemoryMode.POLLUTED || b == MemoryMode.POLLUTED) {
            return MemoryMode.POLLUTED;
        }
        return a == MemoryMode.DISABLED || b == MemoryMode.DISABLED ? MemoryMode.DISABLED : MemoryMode.ENABLED;
    }
}
