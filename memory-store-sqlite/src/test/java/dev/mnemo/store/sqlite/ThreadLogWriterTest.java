package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryStoreException;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.internal.logs.ThreadLogWriter;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import dev.mnemo.testkit.ManualClock;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thread log writer over a real {@code logs.sqlite}: Codex's sink tests
 * ({@code configured_batch_size_flushes_without_explicit_flush},
 * {@code configured_flush_interval_persists_buffered_logs}, {@code event_queue_drops_new_entries_when_full},
 * {@code flush_waits_…}) ported, plus a log storm that never blocks its caller. Time is a manual
 * clock; writes run on the calling thread, on a held executor, or on one real thread.
 */
class ThreadLogWriterTest {

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(T0);
    private SqliteThreadLogStore store;
    /** Tasks handed to a writer that has not run them: a stuck writer thread. */
    private final List<Runnable> held = new ArrayList<>();

    @BeforeEach
    void open() {
        store = SqliteThreadLogStore.open(dir.resolve("logs.sqlite"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private ThreadLogEntry entry(String thread, int i) {
        return new ThreadLogEntry(thread, clock.instant(), "INFO", "mnemo::test", "event " + i);
    }

    private int stored() {
        return store.query(new ThreadLogQuery(Optional.empty(), Optional.empty(), Set.of(), 100_000)).size();
    }

    @Test
    void queriesByTarget_writeWhatIsQueuedFirst_andReadOneTargetOfAThreadOrOfEveryThreadSince() {
        ThreadLogWriter writer = new ThreadLogWriter(store, clock, Runnable::run, 16, 8, Duration.ofSeconds(2));
        writer.log(new ThreadLogEntry("a", T0.minusSeconds(1), "INFO", "mnemo::receipt", "before since"));
        writer.log(new ThreadLogEntry("a", T0, "INFO", "mnemo::receipt", "a turn"));
        writer.log(new ThreadLogEntry("a", T0, "INFO", "mnemo::phase1", "a job"));
        writer.log(new ThreadLogEntry("b", T0.plusSeconds(1), "INFO", "mnemo::receipt", "b turn"));
        ThreadLogs logs = writer;

        assertThat(logs.query("a", "mnemo::receipt", 10)).extracting(ThreadLogEntry::message)
                .containsExactly("before since", "a turn");
        assertThat(logs.queryTarget("mnemo::receipt", T0, 10)).extracting(ThreadLogEntry::message)
                .containsExactly("a turn", "b turn");
        assertThat(logs.queryTarget("mnemo::receipt", T0, 1)).extracting(ThreadLogEntry::message)
                .containsExactly("b turn");
    }

    @Test
    void aFullBatch_isWrittenWithoutAnExplicitFlush() {
        ThreadLogWriter writer = new ThreadLogWriter(store, clock, Runnable::run, 16, 4, Duration.ofSeconds(2));

        for (int i = 0; i < 3; i++) {
            writer.log(entry("a", i));
        }
        assertThat(stored()).isZero();
        writer.log(entry("a", 3));

        assertThat(stored()).isEqualTo(4);
    }

    @Test
    void aFullBatch_isWrittenAlone_theEntriesQueuedBehindItWaitForTheNextBatchOrTheInterval() {
        ThreadLogWriter writer = new ThreadLogWriter(store, clock, held::add, 16, 4, Duration.ofSeconds(2));
        for (int i = 0; i < 6; i++) {
            writer.log(entry("a", i)); // the fourth schedules the write; two more arrive before it runs
        }
        assertThat(held).hasSize(1);

        held.remove(0).run();
        assertThat(stored()).as("one full batch, not the two entries behind it").isEqualTo(4);

        clock.advance(Duration.ofSeconds(2));
        writer.tick();
        held.remove(0).run();
        assertThat(stored()).isEqualTo(6);
    }

    @Test
    void aPartialBatch_isWrittenOnceTheFlushIntervalHasPassed() {
        ThreadLogWriter writer = new ThreadLogWriter(store, clock, Runnable::run);
        writer.log(entry("a", 0));

        clock.advance(Duration.ofMillis(1_999));
        writer.tick();
        assertThat(stored()).isZero();

        clock.advance(Duration.ofMillis(1));
        writer.tick();
        assertThat(stored()).isEqualTo(1);
        assertThat(writer.query("a", 10)).extracting(ThreadLogEntry::message).containsExactly("event 0");
    }

    @Test
    void aFullQueue_dropsNewEntries_countsThem_andTheNextBatchReportsTheLoss() {
        ThreadLogWriter writer = new ThreadLogWriter(store, clock, held::add, 2, 128, Duration.ofSeconds(2));

        for (int i = 0; i < 5; i++) {
            writer.log(entry("a", i));
        }
        assertThat(writer.dropped()).isEqualTo(3);

        writer.flush();
        assertThat(writer.query("a", 10)).extracting(ThreadLogEntry::message).containsExactly("event 0", "event 1");
        assertThat(writer.query(ThreadLogs.LOSSES_THREAD, 10)).singleElement()
                .satisfies(e -> assertThat(e.message()).startsWith("3 log entries lost"));
    }

    /** Found when a database went away under an open engine: the loss report alone kept the writer spinning. */
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // the bug it pins made flush() spin for ever
    void aStoreThatRefusesWrites_endsTheFlush_countsTheLoss_andTheWriterRecoversWhenItIsBack() {
        AtomicBoolean refusing = new AtomicBoolean(true);
        AtomicInteger attempts = new AtomicInteger();
        ThreadLogStore flaky = (ThreadLogStore) Proxy.newProxyInstance(ThreadLogStore.class.getClassLoader(),
                new Class<?>[] {ThreadLogStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("append")) {
                        attempts.incrementAndGet();
                        if (refusing.get()) {
                            throw new MemoryStoreException("the database is gone");
                        }
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        ThreadLogWriter writer = new ThreadLogWriter(flaky, clock, Runnable::run, 16, 4, Duration.ofSeconds(2));
        for (int i = 0; i < 3; i++) {
            writer.log(entry("a", i));
        }

        writer.flush(); // returns: one refused batch ends the pass

        assertThat(attempts).hasValue(1);
        assertThat(writer.dropped()).isEqualTo(3);
        refusing.set(false);
        writer.log(entry("a", 3));
        writer.flush();
        assertThat(writer.query("a", 10)).extracting(ThreadLogEntry::message).containsExactly("event 3");
        assertThat(writer.query(ThreadLogs.LOSSES_THREAD, 10)).singleElement()
                .satisfies(e -> assertThat(e.message()).startsWith("3 log entries lost"));
    }

    @Test
    void flush_writesEveryEntryQueuedBeforeIt_onTheCallingThread() {
        ThreadLogWriter writer = new ThreadLogWriter(store, clock, held::add);
        for (int i = 0; i < 300; i++) {
            writer.log(entry("t" + (i % 3), i));
        }

        writer.flush();

        assertThat(stored()).isEqualTo(300);
        assertThat(writer.written()).isEqualTo(300);
    }

    /**
     * 100,000 events in a burst, as a Phase 1 job's listener would send them, while the writer
     * thread is stuck: every call returns at once, the queue keeps what fits, the rest is counted.
     */
    @Test
    void logStorm_neverBlocksTheCaller_whileTheWriterIsStuck() throws Exception {
        ExecutorService writerThread = Executors.newSingleThreadExecutor();
        CountDownLatch stuck = new CountDownLatch(1);
        writerThread.execute(() -> {
            try {
                stuck.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            ThreadLogWriter writer = new ThreadLogWriter(store, clock, writerThread);
            long slowest = 0;
            long start = System.nanoTime();
            for (int i = 0; i < 100_000; i++) {
                long before = System.nanoTime();
                writer.log(entry("storm-" + (i % 50), i));
                slowest = Math.max(slowest, System.nanoTime() - before);
            }
            long total = System.nanoTime() - start;

            assertThat(writer.dropped()).isEqualTo(100_000 - ThreadLogWriter.QUEUE_CAPACITY);
            System.out.printf("log storm: 100000 events in %d ms, slowest call %d µs, dropped %d%n",
                    TimeUnit.NANOSECONDS.toMillis(total), TimeUnit.NANOSECONDS.toMicros(slowest), writer.dropped());
            assertThat(Duration.ofNanos(total)).as("the burst never waited for the writer")
                    .isLessThan(Duration.ofSeconds(10));

            stuck.countDown();
            writer.flush();
            assertThat(writer.written()).isEqualTo(ThreadLogWriter.QUEUE_CAPACITY + 1); // + the loss report
        } finally {
            stuck.countDown();
            writerThread.shutdown();
            assertThat(writerThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * Phase 1's workers log at once: with the writer stuck, eight threads' 80,000 events leave
     * exactly the queue's capacity queued and count every other one as dropped, whichever thread
     * was turned away.
     */
    @Test
    void logStorm_fromEightThreadsAtOnce_keepsExactlyTheQueuesCapacity_andCountsTheRest() throws Exception {
        ThreadLogWriter writer = new ThreadLogWriter(store, clock, task -> { }); // a writer thread that never runs
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                String thread = "caller-" + t;
                done.add(callers.submit(() -> {
                    start.await();
                    for (int i = 0; i < 10_000; i++) {
                        writer.log(entry(thread, i));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> caller : done) {
                caller.get(30, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }

        assertThat(writer.dropped()).isEqualTo(80_000 - ThreadLogWriter.QUEUE_CAPACITY);
        writer.flush();
        assertThat(writer.written()).isEqualTo(ThreadLogWriter.QUEUE_CAPACITY + 1); // + the loss report
    }

    /** The same burst with a live writer thread: every event is either written or counted as dropped. */
    @Test
    void logStorm_withALiveWriter_accountsForEveryEvent() throws Exception {
        ExecutorService writerThread = Executors.newSingleThreadExecutor();
        try {
            ThreadLogWriter writer = new ThreadLogWriter(store, clock, writerThread);
            for (int i = 0; i < 100_000; i++) {
                writer.log(entry("storm-" + (i % 50), i));
            }
            writer.flush();
            writerThread.shutdown();
            assertThat(writerThread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            writer.flush();

            long reports = writer.query(ThreadLogs.LOSSES_THREAD, 1_000).size();
            System.out.printf("log storm with a live writer: written %d (incl. %d loss reports), dropped %d%n",
                    writer.written(), reports, writer.dropped());
            assertThat(writer.written() - reports + writer.dropped()).isEqualTo(100_000);
        } finally {
            writerThread.shutdownNow();
        }
    }

    /**
     * Issue 36: retention used to run only when the logs opened, so a server up for a month kept a
     * month of entries. Now the writer's tick deletes what is past retention at its first tick, then
     * once a day, by its own clock, on its executor.
     */
    @Test
    void retention_isAppliedAtTheFirstTick_thenOnceADay_byTheWritersClock() {
        ThreadLogWriter writer = new ThreadLogWriter(store, clock, Runnable::run);
        writer.retainFor(Duration.ofDays(10));
        store.append(List.of(new ThreadLogEntry("a", T0.minus(Duration.ofDays(11)), "INFO", "mnemo::test", "old")));

        writer.tick();
        assertThat(stored()).isZero();

        store.append(List.of(new ThreadLogEntry("a", T0, "INFO", "mnemo::test", "recent")));
        clock.advance(Duration.ofHours(23));
        store.append(List.of(new ThreadLogEntry("a", clock.instant().minus(Duration.ofDays(11)), "INFO",
                "mnemo::test", "old again")));
        writer.tick();
        assertThat(stored()).as("less than a day since the last pass").isEqualTo(2);

        clock.advance(Duration.ofHours(1));
        writer.tick();
        assertThat(writer.query("a", 10)).extracting(ThreadLogEntry::message).containsExactly("recent");
    }
}
