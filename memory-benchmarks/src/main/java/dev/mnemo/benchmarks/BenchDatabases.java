package dev.mnemo.benchmarks;

import dev.mnemo.store.sqlite.SqliteMemoryStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.UUID;

/** Store databases of 100,000 threads, filled over JDBC in one transaction after the store created the schema. */
final class BenchDatabases {

    static final int THREADS = 100_000;
    static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    static final String STAGE1 = "memory_stage1";

    private BenchDatabases() {}

    static String threadId(int i) {
        return UUID.nameUUIDFromBytes(("bench-thread-" + i).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** Thread {@code i} was last updated {@code 7 h + i s} before {@link #NOW}: thread 0 is the newest. */
    static long updatedAtMs(int i) {
        return NOW.minus(Duration.ofHours(7)).minusSeconds(i).toEpochMilli();
    }

    /**
     * The claim database: the newest half already extracted (a stored memory and a finished job),
     * except one thread in a thousand; the older half never extracted.
     */
    static void createClaimDatabase(Path db) throws SQLException {
        SqliteMemoryStore.open(db).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.setAutoCommit(false);
            insertThreads(c);
            try (PreparedStatement out = c.prepareStatement(OUTPUT_INSERT);
                    PreparedStatement job = c.prepareStatement("INSERT INTO jobs (kind, job_key, status, worker_id,"
                            + " ownership_token, started_at, finished_at, retry_remaining, input_watermark,"
                            + " last_success_watermark) VALUES ('" + STAGE1 + "', ?, 'done', 'w', 't', ?, ?, 3, ?, ?)")) {
                for (int i = 0; i < THREADS / 2; i++) {
                    if (i % 1_000 == 500) {
                        continue;
                    }
                    long source = updatedAtMs(i) / 1000;
                    addOutput(out, i, source, 0, null);
                    job.setString(1, threadId(i));
                    job.setLong(2, source);
                    job.setLong(3, source + 60);
                    job.setLong(4, source);
                    job.setLong(5, source);
                    job.addBatch();
                }
                out.executeBatch();
                job.executeBatch();
            }
            c.commit();
        }
    }

    /** The selection database: every thread has a memory; usage counts and last uses spread at random. */
    static void createSelectionDatabase(Path db) throws SQLException {
        SqliteMemoryStore.open(db).close();
        Random random = new Random(256);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.setAutoCommit(false);
            insertThreads(c);
            try (PreparedStatement out = c.prepareStatement(OUTPUT_INSERT)) {
                for (int i = 0; i < THREADS; i++) {
                    boolean used = random.nextInt(4) == 0;
                    addOutput(out, i, updatedAtMs(i) / 1000, used ? random.nextInt(20) : 0,
                            used ? NOW.getEpochSecond() - random.nextInt(40 * 86_400) : null);
                }
                out.executeBatch();
            }
            c.commit();
        }
    }

    private static final String OUTPUT_INSERT = "INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory,"
            + " rollout_summary, rollout_slug, generated_at, usage_count, last_usage) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    private static void addOutput(PreparedStatement out, int i, long source, int usageCount, Long lastUsage)
            throws SQLException {
        out.setString(1, threadId(i));
        out.setLong(2, source);
        out.setString(3, "- raw memory " + i + ": the build is flaky because of a shared temp folder");
        out.setString(4, "Thread " + i + " fixed a flaky build.");
        out.setString(5, "flaky-build-" + i);
        out.setLong(6, source + 60);
        if (usageCount > 0) {
            out.setInt(7, usageCount);
        } else {
            out.setNull(7, java.sql.Types.INTEGER);
        }
        if (lastUsage != null) {
            out.setLong(8, lastUsage);
        } else {
            out.setNull(8, java.sql.Types.INTEGER);
        }
        out.addBatch();
    }

    private static void insertThreads(Connection c) throws SQLException {
        try (PreparedStatement t = c.prepareStatement("INSERT INTO threads (id, rollout_path, created_at_ms,"
                + " updated_at_ms, source, cwd, git_branch, preview, archived, memory_mode)"
                + " VALUES (?, ?, ?, ?, 'cli', '/work/app', 'main', 'fix the flaky build', 0, 'enabled')")) {
            for (int i = 0; i < THREADS; i++) {
                t.setString(1, threadId(i));
                t.setString(2, "/home/u/.codex/sessions/2026/03/10/rollout-" + threadId(i) + ".jsonl");
                t.setLong(3, updatedAtMs(i) - 600_000);
                t.setLong(4, updatedAtMs(i));
                t.addBatch();
            }
            t.executeBatch();
        }
    }
}
