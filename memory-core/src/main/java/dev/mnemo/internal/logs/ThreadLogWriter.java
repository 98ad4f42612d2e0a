package dev.mnemo.internal.logs;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Codex's log sink: a bounded queue the caller only ever offers to ({@link #log} never blocks; a
 * full queue drops the new entry and counts it), written in batches of {@link #BATCH_SIZE} or once
 * the oldest queued entry has waited {@link #FLUSH_INTERVAL}, whichever comes first.
 *
 * <p>Writes run on the given {@code executor} (batches are serialised here, so any executor
 * will do, the engine's own included); the interval is checked by {@link #tick()}, which
 * {@link ThreadLogTicker} calls for every open writer of the process from one shared timer thread,
 * and tests call after moving their clock. Readers never wait for the interval: {@link #query}
 * writes what is queued first, and {@link #close()} writes the rest. With {@link #retainFor}, the
 * same tick deletes entries past their retention once a {@link #RETENTION_INTERVAL} (first at the
 * first tick), on the executor too. Beyond Codex, entries lost (queue full, or a batch the store
 * refused) are counted ({@link #dropped()}), and each new loss is itself logged, under the
 * pseudo-thread {@link ThreadLogs#LOSSES_THREAD}, by the next batch.
 *
 * <p>The queue takes no lock: callers (Phase 1's workers, several at once) and the writer meet
 * only on compare-and-set, so a caller never parks while the writer takes a batch out. The bound
 * is kept by a count of the entries queued, raised before an entry goes in, so it is exact under
 * any number of callers.
 */
public final class ThreadLogWriter implements ThreadLogs, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadLogWriter.class);

    /** Codex's {@code LOG_QUEUE_CAPACITY}. */
    public static final int QUEUE_CAPACITY = 512;
    /** Codex's {@code LOG_BATCH_SIZE}. */
    public static final int BATCH_SIZE = 128;
    /** Codex's {@code LOG_FLUSH_INTERVAL}. */
    public static final Duration FLUSH_INTERVAL = Duration.ofSeconds(2);
    /** Codex's {@code LOG_RETENTION_DAYS}: the default age past which entries are deleted when logs open. */
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(10);
    /** How often an open writer with a retention deletes what is past it. */
    public static final Duration RETENTION_INTERVAL = Duration.ofDays(1);

    private final ThreadLogStore store;
    private final Clock clock;
    private final Executor executor;
    private final int batchSize;
    private final Duration flushInterval;
    private final int capacity;
    private final ConcurrentLinkedQueue<ThreadLogEntry> queue = new ConcurrentLinkedQueue<>();
    /** Entries queued, counting one being added: never more than {@link #capacity}. */
    private final AtomicInteger queued = new AtomicInteger();
    /** When the oldest entry still queued was offered; null when the queue was empty. */
    private final AtomicReference<Instant> oldestQueuedAt = new AtomicReference<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    /** Losses already reported in the logs themselves. */
    private long droppedReported;
    private final ReentrantLock writing = new ReentrantLock();
    /** Writes refused since the last one that succeeded (guarded by {@link #writing}). */
    private int failuresInARow;
    /** The age past which entries are deleted by the tick; null when this writer deletes nothing by age. */
    private volatile Duration retention;
    /** When the tick next applies {@link #retention}; null until {@link #retainFor} is called. */
    private final AtomicReference<Instant> nextRetentionAt = new AtomicReference<>();
    /** Set by {@link #close()}: work still queued on the executor then touches the closed store no more. */
    private volatile boolean closed;

    /** A writer with Codex's capacity, batch size and interval. */
    public ThreadLogWriter(ThreadLogStore store, Clock clock, Executor executor) {
        this(store, clock, executor, QUEUE_CAPACITY, BATCH_SIZE, FLUSH_INTERVAL);
    }

    /** A writer with its own capacity, batch size and interval (Codex's {@code LogSinkQueueConfig}). */
    public ThreadLogWriter(ThreadLogStore store, Clock clock, Executor executor, int capacity, int batchSize,
            Duration flushInterval) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.executor = Objects.requireNonNull(executor, "executor");
        if (capacity < 1 || batchSize < 1) {
            throw new IllegalArgumentException("capacity and batchSize must be at least 1, were " + capacity + " and "
                    + batchSize);
        }
        this.capacity = capacity;
        this.batchSize = batchSize;
        this.flushInterval = Objects.requireNonNull(flushInterval, "flushInterval");
    }

    /** Queues one entry without ever waiting: a full queue drops it (counted). */
    public void log(ThreadLogEntry entry) {
        Objects.requireNonNull(entry, "entry");
        int size;
        do {
            size = queued.get();
            if (size >= capacity) {
                dropped.incrementAndGet();
                return;
            }
        } while (!queued.compareAndSet(size, size + 1));
        queue.add(entry);
        if (oldestQueuedAt.get() == null) {
            oldestQueuedAt.compareAndSet(null, clock.instant());
        }
        if (size + 1 >= batchSize) {
            scheduleDrain(true);
        }
    }

    /** {@link #log}: the entry is queued like the engine's own. */
    @Override
    public void append(ThreadLogEntry entry) {
        log(entry);
    }

    /**
     * Deletes entries older than {@code retention} at the next tick, then once every
     * {@link #RETENTION_INTERVAL} while the writer is open (by this writer's clock).
     */
    public void retainFor(Duration retention) {
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("retention must be positive, was " + retention);
        }
        this.retention = retention;
        nextRetentionAt.set(Instant.MIN);
    }

    /**
     * Writes what is queued when its oldest entry has waited the flush interval, and applies the
     * retention when it is due; both on the executor, never on the caller's thread.
     */
    public void tick() {
        Instant now = clock.instant();
        Instant since = oldestQueuedAt.get();
        if (since != null && !now.isBefore(since.plus(flushInterval))) {
            scheduleDrain(false);
        }
        Instant due = nextRetentionAt.get();
        if (due != null && !now.isBefore(due) && nextRetentionAt.compareAndSet(due, now.plus(RETENTION_INTERVAL))) {
            try {
                executor.execute(this::applyScheduledRetention);
            } catch (RuntimeException e) {
                nextRetentionAt.compareAndSet(now.plus(RETENTION_INTERVAL), due); // a shut-down executor: retry later
            }
        }
    }

    /** The scheduled delete, under the write lock so that {@link #close()} never closes the store under it. */
    private void applyScheduledRetention() {
        writing.lock();
        try {
            if (closed) {
                return;
            }
            Duration age = retention;
            try {
                int deleted = applyRetention(age);
                if (deleted > 0) {
                    LOG.debug("thread logs: {} entries older than {} deleted from {}", deleted, age, store);
                }
            } catch (RuntimeException e) {
                LOG.warn("thread logs: entries older than {} could not be deleted from {}; tried again in {}", age,
                        store, RETENTION_INTERVAL, e);
            }
        } finally {
            writing.unlock();
        }
    }

    /**
     * Queues a pass on the executor, unless one is queued already (the next tick asks again).
     *
     * @param fullBatchesOnly a pass for a full batch, which leaves a partial batch queued (for the
     *     next full one, the flush interval or a reader): as in Codex, a full batch is written when
     *     it fills, and the rest waits. Writing the few entries that arrived meanwhile at once cost
     *     a transaction each, most of a full batch's price.
     */
    private void scheduleDrain(boolean fullBatchesOnly) {
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                executor.execute(() -> {
                    drainScheduled.set(false);
                    if (!closed) {
                        drain(fullBatchesOnly);
                    }
                });
            } catch (RuntimeException e) {
                // a shut-down executor: the entries stay queued for flush() or close()
                drainScheduled.set(false);
            }
        }
    }

    /** Writes everything queued now, batch by batch; one writer at a time. */
    private void drain() {
        drain(false);
    }

    /** Writes what is queued, batch by batch, or only full batches; one writer at a time. */
    private void drain(boolean fullBatchesOnly) {
        writing.lock();
        try {
            List<ThreadLogEntry> batch = new ArrayList<>(batchSize);
            while (!fullBatchesOnly || queued.get() >= batchSize) {
                batch.clear();
                oldestQueuedAt.set(null);
                takeBatch(batch);
                if (queued.get() > 0) {
                    oldestQueuedAt.compareAndSet(null, clock.instant());
                }
                reportNewLosses(batch);
                if (batch.isEmpty() || !write(batch)) {
                    return; // a failed write ends the pass: what is still queued waits for the next tick
                }
            }
        } finally {
            writing.unlock();
        }
    }

    /** Moves up to a batch of the oldest queued entries into {@code batch}. */
    private void takeBatch(List<ThreadLogEntry> batch) {
        ThreadLogEntry entry;
        while (batch.size() < batchSize && (entry = queue.poll()) != null) {
            batch.add(entry);
        }
        queued.addAndGet(-batch.size());
    }

    private void reportNewLosses(List<ThreadLogEntry> batch) {
        long lost = dropped.get();
        if (lost > droppedReported) {
            batch.add(new ThreadLogEntry(ThreadLogs.LOSSES_THREAD, clock.instant(), "WARN", "mnemo::logs",
                    (lost - droppedReported) + " log entries lost (queue full or write failed); " + lost
                            + " since the engine opened"));
            droppedReported = lost;
        }
    }

    /**
     * Writes one batch; a batch the store refuses is lost and counted. The first failure in a row is
     * logged with its cause, the next ones (a database gone for a while) at debug level.
     */
    private boolean write(List<ThreadLogEntry> batch) {
        try {
            store.append(List.copyOf(batch));
            written.addAndGet(batch.size());
            failuresInARow = 0;
            return true;
        } catch (RuntimeException e) {
            dropped.addAndGet(batch.size());
            if (failuresInARow++ == 0) {
                LOG.warn("{} thread log entries could not be written to {}; until a write succeeds, further "
                        + "failures are logged at debug level", batch.size(), store, e);
            } else {
                LOG.debug("{} thread log entries could not be written to {}: {}", batch.size(), store, e.toString());
            }
            return false;
        }
    }

    /** Writes what is queued, then reads the store: a reader sees every entry logged before it asked. */
    @Override
    public List<ThreadLogEntry> query(String threadId, int limit) {
        return query(ThreadLogQuery.ofThread(threadId, limit));
    }

    /** Writes what is queued, then reads the store's entries of the thread under {@code target}. */
    @Override
    public List<ThreadLogEntry> query(String threadId, String target, int limit) {
        return query(ThreadLogQuery.ofThread(threadId, limit).withTarget(target));
    }

    /** Writes what is queued, then reads the store's entries of every thread under {@code target} since {@code since}. */
    @Override
    public List<ThreadLogEntry> queryTarget(String target, Instant since, int limit) {
        return query(new ThreadLogQuery(Optional.empty(), Optional.of(Objects.requireNonNull(since, "since")), Set.of(),
                limit).withTarget(target));
    }

    /** Writes what is queued, then reads the store: a reader sees every entry logged before it asked. */
    public List<ThreadLogEntry> query(ThreadLogQuery query) {
        if (queued.get() > 0) {
            drain();
        }
        return store.query(query);
    }

    /** Writes, on the calling thread, every entry queued before the call. */
    @Override
    public void flush() {
        drain();
    }

    @Override
    public long dropped() {
        return dropped.get();
    }

    /** Entries written to the store so far (for tests and benchmarks). */
    public long written() {
        return written.get();
    }

    /** Deletes from the store what is older than {@code retention}. */
    public int applyRetention(Duration retention) {
        return store.deleteOlderThan(clock.instant().minus(retention));
    }

    /** Deletes a thread's entries (after the thread itself is deleted). */
    public void forgetThread(String threadId) {
        store.deleteThread(threadId);
    }

    /** Writes what is queued, then closes the store. */
    @Override
    public void close() {
        try {
            flush();
        } finally {
            writing.lock();
            try {
                closed = true;
                store.close();
            } finally {
                writing.unlock();
            }
        }
    }
}
