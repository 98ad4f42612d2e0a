package dev.mnemo.internal.engine;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.internal.logs.LogsConfig;
import dev.mnemo.internal.logs.ThreadLogListener;
import dev.mnemo.internal.logs.ThreadLogWriter;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryStoreProvider;
import dev.mnemo.spi.ThreadLogStore;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's thread logs: the store's own ({@link dev.mnemo.spi.MemoryStore#threadLogs()}, fleet
 * mode), else opened beside a store the engine discovered itself (its provider's
 * {@link MemoryStoreProvider#openThreadLogs}); one daemon thread writes the batches and checks the
 * flush interval every second. Any other engine has none: {@link #threadLogs()} then says why.
 */
final class EngineLogs implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EngineLogs.class);

    private final ThreadLogWriter writer;
    private final ScheduledExecutorService thread;
    private final String missingReason;

    private EngineLogs(ThreadLogWriter writer, ScheduledExecutorService thread, String missingReason) {
        this.writer = writer;
        this.thread = thread;
        this.missingReason = missingReason;
    }

    static EngineLogs open(EngineParts parts) {
        Optional<ThreadLogStore> kept = parts.store().threadLogs();
        if (kept.isPresent()) {
            return start(kept.get(), parts);
        }
        if (!parts.ownsStore()) {
            return none("the engine was given a store that keeps no thread logs; they are kept beside a store the "
                    + "engine opens itself (memory-store-sqlite's logs.sqlite) or by a store that offers them "
                    + "(fleet mode)");
        }
        Optional<MemoryStoreProvider> provider = ServiceLoader.load(MemoryStoreProvider.class,
                EngineLogs.class.getClassLoader()).findFirst();
        if (provider.isEmpty()) {
            return none("no MemoryStoreProvider on the class path");
        }
        try {
            return start(provider.get().openThreadLogs(parts.home()), parts);
        } catch (UnsupportedOperationException e) {
            return none(e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("thread logs could not be opened in {}; the engine runs without them", parts.home(), e);
            return none("the logs database could not be opened: " + e.getMessage());
        }
    }

    private static EngineLogs start(ThreadLogStore store, EngineParts parts) {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mnemo-thread-logs");
            t.setDaemon(true);
            return t;
        });
        ThreadLogWriter writer = new ThreadLogWriter(store, parts.wallClock(), thread);
        thread.scheduleWithFixedDelay(writer::tick, 1, 1, TimeUnit.SECONDS);
        thread.execute(() -> applyRetention(writer, parts));
        return new EngineLogs(writer, thread, null);
    }

    private static void applyRetention(ThreadLogWriter writer, EngineParts parts) {
        try {
            int deleted = writer.applyRetention(LogsConfig.load(parts.home().resolve("config.toml")).retention());
            if (deleted > 0) {
                LOG.debug("thread logs: {} entries past retention deleted", deleted);
            }
        } catch (RuntimeException e) {
            LOG.warn("thread logs: retention could not be applied", e);
        }
    }

    private static EngineLogs none(String reason) {
        return new EngineLogs(null, null, reason);
    }

    /** The listener that feeds the logs, if there are logs. */
    List<MemoryEventListener> listeners(Clock clock) {
        return writer == null ? List.of() : List.of(new ThreadLogListener(writer, clock));
    }

    /** Logs one entry, when there are logs; never blocks. */
    void log(ThreadLogEntry entry) {
        if (writer != null) {
            writer.log(entry);
        }
    }

    ThreadLogs threadLogs() {
        if (writer == null) {
            throw new UnsupportedOperationException("this engine keeps no thread logs: " + missingReason);
        }
        return writer;
    }

    /** Deletes a deleted thread's entries, best effort. */
    void forgetThread(String threadId) {
        if (writer != null) {
            try {
                writer.forgetThread(threadId);
            } catch (RuntimeException e) {
                LOG.warn("thread {} deleted, but its thread logs could not be deleted", threadId, e);
            }
        }
    }

    @Override
    public void close() {
        if (writer != null) {
            thread.shutdown();
            try {
                thread.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            writer.close();
        }
    }
}
