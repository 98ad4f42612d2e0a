package dev.mnemo.benchmarks;

import dev.mnemo.MemoryEngine;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code log_ingest}: thread log entries written per second through the public path, a burst of
 * {@link #BURST} {@code engine.threadLogs().append(entry)} calls followed by {@code flush()}, so
 * every call ends with its entries written to {@code logs.sqlite}. The burst is the writer's queue
 * capacity, so a burst never overflows it; {@code dropped()} is checked after every iteration and a
 * drop fails the run, so dropped entries are never counted as ingested.
 *
 * <p>The entries go round-robin to {@link #THREADS} thread ids, every {@link #FULL_EVERY}th of them
 * filled to its 1,000-row cap in setup: each batch of 128 checks the caps of the 128 threads it
 * touched and deletes past the cap in about 13 of them (Codex's per-partition pruning in the insert
 * transaction). Reference: the same rows, after the same prefill, inserted with plain JDBC batch
 * inserts into a table of the same shape (the columns and the two indexes of {@code logs}: the time
 * index, ascending as since logs.sqlite's V5, and the per-thread one keyed by each thread's integer
 * partition id and carrying {@code estimated_bytes}, as since its V4, the ids kept in a map of the
 * benchmark's) in a database file of its own with the same pragmas, one transaction per batch of
 * 128, and no pruning (so no {@code log_partitions} ids or sizes either).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ThreadLogBenchmarks {

    /** Entries per call: the writer's queue capacity (Codex's LOG_QUEUE_CAPACITY, 512). */
    static final int BURST = 512;
    /** The writer's batch (Codex's LOG_BATCH_SIZE): one insert transaction. */
    static final int BATCH = 128;
    static final int THREADS = 1_000;
    /** Every this many thread ids starts at its row cap. */
    static final int FULL_EVERY = 10;
    /** The per-thread row cap of the log store (Codex's 1,000). */
    static final int PARTITION_ROWS = 1_000;
    static final Instant START = Instant.parse("2026-03-10T12:00:00Z");

    private static final String[] THREAD_IDS = new String[THREADS];
    private static final String[] LEVELS = {"INFO", "DEBUG", "INFO", "WARN"};
    private static final String[] TARGETS = {"mnemo::phase1", "mnemo::phase1", "mnemo::cite", "mnemo::startup"};
    private static final String[] MESSAGES = {
        "phase 1 job succeeded",
        "model call: tokens in 18234 (cached 12288), out 912 (reasoning 384)",
        "cited 3 memories (3 counted): rollout_summaries/2026-03-09-flaky-build.md, MEMORY.md, memory_summary.md",
        "phase 1 job failed: the model's answer did not match the schema (missing field rollout_slug)",
    };

    static {
        for (int i = 0; i < THREADS; i++) {
            THREAD_IDS[i] = UUID.nameUUIDFromBytes(("log-thread-" + i).getBytes(StandardCharsets.UTF_8)).toString();
        }
    }

    /** Entry number {@code seq} of the run: thread {@code seq % THREADS}, one microsecond after the previous. */
    static ThreadLogEntry entry(long seq) {
        int kind = (int) (seq % MESSAGES.length);
        return new ThreadLogEntry(THREAD_IDS[(int) (seq % THREADS)], START.plusNanos(seq * 1_000), LEVELS[kind],
                TARGETS[kind], MESSAGES[kind]);
    }

    /** The prefill: {@code PARTITION_ROWS} entries of each full thread, before {@link #START}. */
    static ThreadLogEntry prefill(int fullThread, int row) {
        String threadId = THREAD_IDS[fullThread * FULL_EVERY];
        return new ThreadLogEntry(threadId, START.minusSeconds(3_600).plusNanos((long) row * 1_000), "INFO",
                "mnemo::phase1", MESSAGES[row % MESSAGES.length]);
    }

    static int prefillRows() {
        return THREADS / FULL_EVERY * PARTITION_ROWS;
    }

    /** An engine over a fresh home, its logs prefilled through the public path. */
    @State(Scope.Benchmark)
    public static class EngineWithLogs {
        Path home;
        MemoryEngine engine;
        ThreadLogs logs;
        long seq;

        @Setup(Level.Trial)
        public void setUp() {
            home = BenchSupport.scratch("logs");
            engine = MemoryEngine.builder().home(home).clock(Clock.fixed(START, ZoneOffset.UTC)).build();
            logs = engine.threadLogs();
            for (int done = 0; done < prefillRows(); done += BURST) {
                for (int i = done; i < Math.min(done + BURST, prefillRows()); i++) {
                    logs.append(prefill(i / PARTITION_ROWS, i % PARTITION_ROWS));
                }
                logs.flush();
            }
            int full = logs.query(THREAD_IDS[0], PARTITION_ROWS + 1).size();
            if (full != PARTITION_ROWS || logs.dropped() != 0) {
                throw new IllegalStateException("prefill: thread 0 has " + full + " entries, expected " + PARTITION_ROWS
                        + "; dropped " + logs.dropped());
            }
        }

        /** A dropped entry would be counted as ingested: fail instead. */
        @TearDown(Level.Iteration)
        public void checkNothingDropped() {
            if (logs.dropped() != 0) {
                throw new IllegalStateException(logs.dropped() + " log entries dropped; the rate would count them");
            }
        }

        /** The full threads stayed at their cap: pruning ran in the timed inserts. */
        @TearDown(Level.Trial)
        public void tearDown() {
            try {
                int rows = logs.query(THREAD_IDS[0], PARTITION_ROWS + 1).size();
                if (seq > THREADS && rows != PARTITION_ROWS) {
                    throw new IllegalStateException("thread 0 has " + rows + " entries after " + seq + " appended, expected "
                            + "the cap " + PARTITION_ROWS);
                }
            } finally {
                engine.close();
                BenchSupport.deleteRecursively(home);
            }
        }
    }

    /** A plain SQLite file with a table shaped like {@code logs}, prefilled with the same rows. */
    @State(Scope.Benchmark)
    public static class PlainTable {
        Path dir;
        Connection jdbc;
        long seq;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            dir = BenchSupport.scratch("logs-reference");
            jdbc = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("reference.sqlite"));
            try (Statement s = jdbc.createStatement()) {
                // The pragmas every Mnemo connection runs with (SqliteDatabase), and logs.sqlite's schema.
                s.execute("PRAGMA journal_mode = WAL");
                s.execute("PRAGMA synchronous = NORMAL");
                s.execute("PRAGMA foreign_keys = ON");
                s.execute("PRAGMA secure_delete = ON");
                s.execute("CREATE TABLE logs (id INTEGER PRIMARY KEY AUTOINCREMENT, ts INTEGER NOT NULL,"
                        + " ts_nanos INTEGER NOT NULL, level TEXT NOT NULL, target TEXT NOT NULL, message TEXT NOT NULL,"
                        + " thread_id TEXT NOT NULL, estimated_bytes INTEGER NOT NULL DEFAULT 0,"
                        + " partition_id INTEGER NOT NULL DEFAULT 0)");
                s.execute("CREATE INDEX idx_logs_ts ON logs (ts, ts_nanos, id)");
                s.execute("CREATE INDEX idx_logs_partition_size ON logs (partition_id, ts DESC, ts_nanos DESC, id DESC,"
                        + " estimated_bytes)");
            }
            jdbc.setAutoCommit(false);
            for (int done = 0; done < prefillRows(); done += BATCH) {
                try (PreparedStatement insert = jdbc.prepareStatement(INSERT)) {
                    for (int i = done; i < Math.min(done + BATCH, prefillRows()); i++) {
                        add(insert, prefill(i / PARTITION_ROWS, i % PARTITION_ROWS));
                    }
                    insert.executeBatch();
                }
                jdbc.commit();
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws SQLException {
            jdbc.close();
            BenchSupport.deleteRecursively(dir);
        }
    }

    private static final String INSERT = "INSERT INTO logs (ts, ts_nanos, level, target, message, thread_id,"
            + " estimated_bytes, partition_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    /** The reference's partition ids: a thread's index in {@link #THREAD_IDS}, plus one (logs.sqlite's start at 1). */
    private static final Map<String, Long> PARTITION_IDS = new HashMap<>();

    static {
        for (int i = 0; i < THREADS; i++) {
            PARTITION_IDS.put(THREAD_IDS[i], i + 1L);
        }
    }

    private static void add(PreparedStatement insert, ThreadLogEntry e) throws SQLException {
        insert.setLong(1, e.ts().getEpochSecond());
        insert.setInt(2, e.ts().getNano());
        insert.setString(3, e.level());
        insert.setString(4, e.target());
        insert.setString(5, e.message());
        insert.setString(6, e.threadId());
        insert.setLong(7, utf8(e.message()) + utf8(e.level()) + utf8(e.target()));
        insert.setLong(8, PARTITION_IDS.get(e.threadId()));
        insert.addBatch();
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** {@link #BURST} entries appended, then flushed: when this returns they are in {@code logs.sqlite}. */
    @Benchmark
    public long logIngest(EngineWithLogs state) {
        for (int i = 0; i < BURST; i++) {
            state.logs.append(entry(state.seq++));
        }
        state.logs.flush();
        return state.seq;
    }

    /** The same {@link #BURST} rows with plain JDBC: batches of {@link #BATCH}, one transaction each, no pruning. */
    @Benchmark
    public long logIngestReference(PlainTable state) throws SQLException {
        for (int batch = 0; batch < BURST; batch += BATCH) {
            try (PreparedStatement insert = state.jdbc.prepareStatement(INSERT)) {
                for (int i = 0; i < BATCH; i++) {
                    add(insert, entry(state.seq++));
                }
                insert.executeBatch();
            }
            state.jdbc.commit();
        }
        return state.seq;
    }
}
