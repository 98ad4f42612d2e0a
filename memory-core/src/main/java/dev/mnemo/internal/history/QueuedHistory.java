package dev.mnemo.internal.history;

import dev.mnemo.HistoryEntry;
import dev.mnemo.MessageHistory;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recorded session's history appends, off the caller's thread, as Codex's TUI spawns its
 * {@code append_entry} and only warns when it fails. The caller's thread decides whether the text
 * is kept, stamps it with the clock and queues it; the redaction, the file lock and the write run
 * on {@code executor}, one append at a time and in the order they were queued. Readers never see
 * less than was queued before they asked: every read, and {@link #removeSession} (so a thread's
 * line still queued is not written after its lines were removed), first writes what is queued, as
 * does {@link #flush()} when the engine closes; a JVM that exits with an engine still open writes
 * them before it goes (a shutdown hook, held while the writer thread lives).
 *
 * <p>On the caller's thread this is a few microseconds whatever the file system does; writing the
 * line itself (open, lock, {@code chmod} check, write, unlock) took 30 to 90 µs, and with eight
 * conversations appending at once each waited for the others' writes in turn.
 */
public final class QueuedHistory implements MessageHistory {

    private static final Logger LOG = LoggerFactory.getLogger(QueuedHistory.class);

    /** How long the shared writer thread outlives its last append. */
    static final long WRITER_KEEP_ALIVE_SECONDS = 30;

    /** How long the JVM's exit waits for the lines still queued when no engine closed them. */
    static final long EXIT_WAIT_SECONDS = 5;

    /**
     * Lines an engine's queue holds at most: past it, the appending caller writes what is queued
     * itself, so a writer that falls behind (a slow or full disk) slows the callers down instead
     * of letting the queue grow without bound. Nothing is dropped.
     */
    static final int MAX_QUEUED = 1_024;

    private static final ThreadPoolExecutor SHARED_WRITER = sharedWriterThread();

    private final EngineHistory history;
    private final Executor executor;
    private final ConcurrentLinkedQueue<Queued> queued = new ConcurrentLinkedQueue<>();
    /** How many lines {@link #queued} holds ({@code size()} of that queue walks it). */
    private final AtomicInteger queuedCount = new AtomicInteger();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final ReentrantLock writing = new ReentrantLock();

    private record Queued(String sessionId, String text, Instant at) {}

    /**
     * @param history where the lines go
     * @param executor runs the writes; {@link #sharedWriter()} for the process's one history writer
     */
    public QueuedHistory(EngineHistory history, Executor executor) {
        this.history = Objects.requireNonNull(history, "history");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * The process's history writer: one daemon thread, {@code mnemo-history-write}, shared by every
     * engine and ended after {@value #WRITER_KEEP_ALIVE_SECONDS} s without work.
     */
    public static Executor sharedWriter() {
        return SHARED_WRITER;
    }

    /**
     * Queues one user message of {@code sessionId}, stamped now; returns false, queuing nothing,
     * when the history keeps no such text ({@link EngineHistory#keeps}).
     */
    public boolean append(String sessionId, String text) {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(text, "text");
        if (!history.keeps(text)) {
            return false;
        }
        queued.add(new Queued(sessionId, text, history.now()));
        if (queuedCount.incrementAndGet() > MAX_QUEUED) {
            drain(); // the writer is behind: this caller writes, nothing is dropped
        } else {
            scheduleDrain();
        }
        return true;
    }

    /** Writes, on the calling thread, every append queued before the call. */
    public void flush() {
        drain();
    }

    /** Writes what is queued, then removes every line of {@code sessionId}; returns how many went. */
    public int removeSession(String sessionId) {
        flush();
        return history.removeSession(sessionId);
    }

    @Override
    public List<HistoryEntry> recent(int limit) {
        flush();
        return history.recent(limit);
    }

    @Override
    public List<HistoryEntry> search(String text, int limit) {
        flush();
        return history.search(text, limit);
    }

    @Override
    public Optional<HistoryEntry> entry(long offset) {
        flush();
        return history.entry(offset);
    }

    private void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                executor.execute(() -> {
                    drainScheduled.set(false);
                    drain();
                });
            } catch (RuntimeException e) {
                drainScheduled.set(false); // a shut-down executor: the caller writes its own line
                drain();
            }
        }
    }

    /** Writes everything queued now, oldest first; one writer at a time. */
    private void drain() {
        writing.lock();
        try {
            for (Queued next = queued.poll(); next != null; next = queued.poll()) {
                queuedCount.decrementAndGet();
                write(next);
            }
        } finally {
            writing.unlock();
        }
    }

    /** One line; a failure is logged and the next line is still tried, as in Codex. */
    private void write(Queued line) {
        try {
            history.append(line.sessionId(), line.text(), line.at());
        } catch (RuntimeException e) {
            LOG.warn("could not add a message of thread {} to the message history {}", line.sessionId(), history, e);
        }
    }

    private static ThreadPoolExecutor sharedWriterThread() {
        ThreadPoolExecutor writer = new ThreadPoolExecutor(1, 1, WRITER_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), QueuedHistory::writerThread);
        writer.allowCoreThreadTimeOut(true);
        return writer;
    }

    /**
     * The writer thread, a daemon, which holds a shutdown hook for as long as it lives: a JVM that
     * exits without closing its engines (the end of {@code main}, {@code System.exit}) would stop
     * it with lines still queued. The hook lets it write them first, up to
     * {@value #EXIT_WAIT_SECONDS} s. Held only while the thread lives, the hook keeps no class
     * loader of a redeployed application alive past the writer's keep-alive.
     */
    private static Thread writerThread(Runnable work) {
        Thread hook = new Thread(QueuedHistory::writeQueuedLinesAtExit, "mnemo-history-exit");
        Thread writer = new Thread(() -> {
            try {
                work.run();
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // the JVM is exiting: the hook runs, and finds nothing queued
                }
            }
        }, "mnemo-history-write");
        writer.setDaemon(true);
        Runtime.getRuntime().addShutdownHook(hook);
        return writer;
    }

    /**
     * At exit: every line queued has a write queued after it on the writer (an append schedules
     * one unless one not yet started is queued), so once a task queued now has run, they are written.
     */
    private static void writeQueuedLinesAtExit() {
        try {
            SHARED_WRITER.submit(() -> { }).get(EXIT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("message history lines still queued at exit may be lost: {}", e.toString());
        }
    }

    @Override
    public String toString() {
        return history.toString();
    }
}
