package dev.mnemo.internal.engine;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.internal.logs.ThreadLogListener;
import dev.mnemo.internal.logs.ThreadLogTicker;
import dev.mnemo.internal.logs.ThreadLogWriter;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryStoreProvider;
import dev.mnemo.spi.Stage1Store;
import dev.mnemo.spi.ThreadLogStore;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's thread logs: the store's own ({@link dev.mnemo.spi.MemoryStore#threadLogs()}, fleet
 * mode), else opened beside a store the engine discovered itself (its provider's
 * {@link MemoryStoreProvider#openThreadLogs}). The process's {@link ThreadLogTicker} checks the
 * flush interval and the retention ({@code [logs] retention_days}, applied once a day) every second
 * and writes on its small shared pool, so an open engine holds no thread of its own for its logs
 * and its logs take no thread of the engine's executor. Any other engine has none:
 * {@link #threadLogs()} then says why.
 */
final class EngineLogs implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EngineLogs.class);

    private final ThreadLogWriter writer;
    private final ThreadLogTicker.Registration ticks;
    private final String missingReason;
    /** Whether the engine's events are written (false for a read-only engine). */
    private final boolean writes;

    private EngineLogs(ThreadLogWriter writer, ThreadLogTicker.Registration ticks, String missingReason,
            boolean writes) {
        this.writer = writer;
        this.ticks = ticks;
        this.missingReason = missingReason;
        this.writes = writes;
    }

    private EngineLogs(ThreadLogWriter writer, ThreadLogTicker.Registration ticks, String missingReason) {
        this(writer, ticks, missingReason, writer != null);
    }

    /** The engine's logs. */
    static EngineLogs open(EngineParts parts) {
        return open(parts, ThreadLogTicker.shared().executor());
    }

    private static EngineLogs open(EngineParts parts, Executor executor) {
        Optional<ThreadLogStore> kept = parts.store().threadLogs();
        if (kept.isPresent()) {
            return start(kept.get(), parts, executor);
        }
        if (parts.readOnly() && parts.ownsStore()) {
            return openExistingReadOnly(parts, executor);
        }
        if (!parts.ownsStore()) {
            return none("the engine was given a store that keeps no thread logs; they are kept beside a store the "
                    + "engine opens itself (memory-store-sqlite's logs.sqlite) or by a store that offers them "
                    + "(fleet mode)");
        }
        Optional<MemoryStoreProvider> provider = EngineBuilder.firstOwnLoaderProvider(MemoryStoreProvider.class);
        if (provider.isEmpty()) {
            return none("no MemoryStoreProvider on the class path");
        }
        try {
            return start(provider.get().openThreadLogs(parts.home()), parts, executor);
        } catch (UnsupportedOperationException e) {
            return none(e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("thread logs could not be opened in {}; the engine runs without them", parts.home(), e);
            return none("the logs database could not be opened: " + e.getMessage());
        }
    }

    /**
     * A read-only engine's logs: the file beside the store when it exists, read-only; none when it
     * does not (a home from before thread logs gets no new file).
     */
    private static EngineLogs openExistingReadOnly(EngineParts parts, Executor executor) {
        Optional<MemoryStoreProvider> provider = EngineBuilder.firstOwnLoaderProvider(MemoryStoreProvider.class);
        try {
            Optional<ThreadLogStore> existing = provider.flatMap(p -> p.openExistingThreadLogsReadOnly(parts.home()));
            return existing.map(store -> start(store, parts, executor))
                    .orElseGet(() -> none("no thread logs in " + parts.home() + " (none were written there yet)"));
        } catch (RuntimeException e) {
            LOG.warn("thread logs in {} could not be opened read-only; the engine runs without them", parts.home(), e);
            return none("the logs database could not be opened: " + e.getMessage());
        }
    }

    /**
     * A writer over {@code store}. A read-only engine's only reads: it is not ticked, applies no
     * retention, and the engine's events are not written to it.
     */
    private static EngineLogs start(ThreadLogStore store, EngineParts parts, Executor executor) {
        ThreadLogWriter writer = new ThreadLogWriter(store, parts.wallClock(), executor);
        if (parts.readOnly()) {
            return new EngineLogs(writer, () -> { }, null, false);
        }
        writer.retainFor(parts.logsRetention());
        return new EngineLogs(writer, ThreadLogTicker.shared().register(writer), null);
    }

    private static EngineLogs none(String reason) {
        return new EngineLogs(null, null, reason);
    }

    /**
     * The listeners that feed the logs, if there are logs: the events, and a line when a Phase 1 job
     * dies. For an engine that cannot consolidate at all, {@code phase2Unavailable} says why, in the
     * Phase 2 log after each startup run.
     */
    List<MemoryEventListener> listeners(Clock clock, Stage1Store stage1, Optional<String> phase2Unavailable) {
        return writes ? List.of(new ThreadLogListener(writer, clock, phase2Unavailable),
                new DeadJobJournal(stage1, writer::log, clock)) : List.of();
    }

    /** Logs one entry, when there are logs; never blocks. */
    void log(ThreadLogEntry entry) {
        if (writes) {
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
        if (writes) {
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
            ticks.close();
            writer.close();
        }
    }
}
