package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ThreadLogStore} must do: Codex's partition caps ({@code insert_logs_prunes_*},
 * per thread here) pruned in the insert's transaction, its level filter that keeps the stored level
 * ({@code query_logs_filters_level_set_without_rewriting_stored_level}), and Mnemo's queries, age
 * retention and per-thread delete. A store's test extends it and opens an empty store; the contract
 * closes it after each test.
 */
public abstract class ThreadLogStoreContract {

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    private static final int MIB = 1024 * 1024;

    /** The store under test, opened before each test. */
    protected ThreadLogStore logs;

    /**
     * An empty logs store.
     *
     * @return a store holding no log entry, closed by the suite
     * @throws Exception if the store cannot be opened
     */
    protected abstract ThreadLogStore openLogs() throws Exception;

    @BeforeEach
    void openLogStore() throws Exception {
        logs = openLogs();
    }

    @AfterEach
    void closeLogStore() {
        logs.close();
    }

    private static ThreadLogEntry entry(String thread, int second, String message) {
        return new ThreadLogEntry(thread, T0.plusSeconds(second), "INFO", "t", message);
    }

    private List<ThreadLogEntry> all(String thread) {
        return logs.query(ThreadLogQuery.ofThread(thread, 100_000));
    }

    /** What {@link ThreadLogStore} says a row counts for: the UTF-8 size of message, level and target. */
    private static long estimatedBytes(ThreadLogEntry entry) {
        return (entry.message() + entry.level() + entry.target()).getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void append_prunesAThreadPastTheRowCap_keepingTheNewest() {
        List<ThreadLogEntry> batch = new ArrayList<>();
        for (int i = 0; i < ThreadLogStore.PARTITION_ROW_LIMIT + 5; i++) {
            batch.add(entry("a", i, "row " + i));
        }
        logs.append(batch);

        List<ThreadLogEntry> kept = all("a");
        assertThat(kept).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
        assertThat(kept.get(0).message()).isEqualTo("row 5");
        assertThat(kept.get(kept.size() - 1).message()).isEqualTo("row 1004");
    }

    @Test
    void append_prunesAThreadPastTheRowCap_acrossBatches() {
        for (int b = 0; b < 3; b++) {
            List<ThreadLogEntry> batch = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                batch.add(entry("a", b * 400 + i, "row " + (b * 400 + i)));
            }
            logs.append(batch);
        }
        List<ThreadLogEntry> kept = all("a");
        assertThat(kept).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
        assertThat(kept.get(0).message()).isEqualTo("row 200");
    }

    @Test
    void append_prunesAThreadPastTheByteCap_acrossBatches() {
        String oneMib = "x".repeat(MIB - 5); // + "INFO" + "t" = 1 MiB estimated
        for (int i = 0; i < 12; i++) {
            logs.append(List.of(entry("big", i, i + oneMib.substring(Integer.toString(i).length()))));
        }

        List<ThreadLogEntry> kept = all("big");
        assertThat(kept).hasSize(10);
        assertThat(kept.get(0).message()).startsWith("2x");
        assertThat(kept.stream().mapToLong(ThreadLogStoreContract::estimatedBytes).sum())
                .isLessThanOrEqualTo(ThreadLogStore.PARTITION_SIZE_LIMIT_BYTES);
    }

    @Test
    void append_countsBytesInUtf8() {
        String halfMibOfTwoByteChars = "é".repeat(MIB / 2 - 3); // ≈ 1 MiB in UTF-8, 0.5 Mi chars
        for (int i = 0; i < 11; i++) {
            logs.append(List.of(entry("wide", i, halfMibOfTwoByteChars)));
        }
        List<ThreadLogEntry> kept = all("wide");
        assertThat(kept).hasSize(10);
        assertThat(kept.stream().mapToLong(ThreadLogStoreContract::estimatedBytes).sum())
                .isLessThanOrEqualTo(ThreadLogStore.PARTITION_SIZE_LIMIT_BYTES);
    }

    @Test
    void append_deletesASingleRowOverTheByteCapAtOnce() {
        logs.append(List.of(entry("huge", 0, "small")));
        logs.append(List.of(entry("huge", 1, "y".repeat(10 * MIB + 1))));

        assertThat(all("huge")).isEmpty();
    }

    @Test
    void append_prunesOnlyThePartitionsItTouched() {
        List<ThreadLogEntry> batch = new ArrayList<>();
        for (int i = 0; i < ThreadLogStore.PARTITION_ROW_LIMIT; i++) {
            batch.add(entry("quiet", i, "q" + i));
        }
        logs.append(batch);
        batch.clear();
        for (int i = 0; i < ThreadLogStore.PARTITION_ROW_LIMIT + 1; i++) {
            batch.add(entry("mnemo:phase2", i, "p" + i));
        }
        logs.append(batch);

        assertThat(all("quiet")).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
        assertThat(all("mnemo:phase2")).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
    }

    @Test
    void append_ofNothing_writesNothing() {
        logs.append(List.of());
        assertThat(logs.query(new ThreadLogQuery(Optional.empty(), Optional.empty(), Set.of(), 10))).isEmpty();
    }

    @Test
    void query_filtersByThreadLevelsAndSince_andReturnsTheNewestOldestFirst() {
        logs.append(List.of(
                new ThreadLogEntry("a", T0, "DEBUG", "t", "debug"),
                new ThreadLogEntry("a", T0.plusSeconds(1), "WARN", "t", "warn"),
                new ThreadLogEntry("b", T0.plusSeconds(2), "ERROR", "t", "other thread"),
                new ThreadLogEntry("a", T0.plusSeconds(3), "info", "t", "lower-case level")));

        assertThat(logs.query(ThreadLogQuery.ofThread("a", 2))).extracting(ThreadLogEntry::message)
                .containsExactly("warn", "lower-case level");
        assertThat(logs.query(new ThreadLogQuery(Optional.empty(), Optional.empty(), ThreadLogQuery.atLeast("warn"),
                10))).extracting(ThreadLogEntry::message).containsExactly("warn", "other thread");
        assertThat(logs.query(new ThreadLogQuery(Optional.of("a"), Optional.of(T0.plusSeconds(1)), Set.of(), 10)))
                .extracting(ThreadLogEntry::message).containsExactly("warn", "lower-case level");
        assertThat(logs.query(ThreadLogQuery.ofThread("a", 1)).get(0).level()).as("stored level kept")
                .isEqualTo("info");
    }

    @Test
    void query_byTarget_findsThatTargetAcrossThreadsSince_beforeTheLimitApplies() {
        logs.append(List.of(
                new ThreadLogEntry("a", T0, "INFO", "mnemo::receipt", "too old"),
                new ThreadLogEntry("a", T0.plusSeconds(1), "INFO", "mnemo::receipt", "a's turn"),
                new ThreadLogEntry("b", T0.plusSeconds(2), "INFO", "mnemo::receipt", "b's turn"),
                new ThreadLogEntry("b", T0.plusSeconds(3), "INFO", "mnemo::receipt-like", "another target"),
                new ThreadLogEntry("b", T0.plusSeconds(4), "INFO", "mnemo::phase1", "newer, other target"),
                new ThreadLogEntry("b", T0.plusSeconds(5), "INFO", "mnemo::phase1", "newest, other target")));
        ThreadLogQuery since = new ThreadLogQuery(Optional.empty(), Optional.of(T0.plusSeconds(1)), Set.of(), 2);

        assertThat(logs.query(since.withTarget("mnemo::receipt"))).extracting(ThreadLogEntry::message)
                .containsExactly("a's turn", "b's turn");
        assertThat(logs.query(ThreadLogQuery.ofThread("b", 5).withTarget("mnemo::receipt")))
                .extracting(ThreadLogEntry::message).containsExactly("b's turn");
        assertThat(logs.query(since)).as("without a target, every target").extracting(ThreadLogEntry::message)
                .containsExactly("newer, other target", "newest, other target");
    }

    @Test
    void entries_roundTripWithNanosecondsAndAnyText() {
        ThreadLogEntry entry = new ThreadLogEntry("thread ü", T0.plusNanos(123_456_789), "WARN", "mnemo::phase1",
                "quote \" newline \n emoji 🙂");
        logs.append(List.of(entry));
        assertThat(logs.query(ThreadLogQuery.ofThread("thread ü", 5))).containsExactly(entry);
        assertThat(logs.query(new ThreadLogQuery(Optional.empty(), Optional.of(T0.plusNanos(123_456_790)), Set.of(),
                5))).as("since is inclusive to the nanosecond").isEmpty();
    }

    @Test
    void entriesOfTheSameInstant_keepTheirInsertionOrder() {
        logs.append(List.of(entry("a", 0, "first"), entry("a", 0, "second"), entry("a", 0, "third")));
        assertThat(all("a")).extracting(ThreadLogEntry::message).containsExactly("first", "second", "third");
        assertThat(logs.query(ThreadLogQuery.ofThread("a", 1))).extracting(ThreadLogEntry::message)
                .containsExactly("third");
    }

    @Test
    void deleteOlderThan_appliesAgeRetention_andDeleteThreadForgetsOneThread() {
        logs.append(List.of(entry("a", 0, "old"), entry("a", (int) Duration.ofDays(11).toSeconds(), "new"),
                entry("b", 0, "b old")));

        assertThat(logs.deleteOlderThan(T0.plus(Duration.ofDays(1)))).isEqualTo(2);
        assertThat(all("a")).extracting(ThreadLogEntry::message).containsExactly("new");

        assertThat(logs.deleteThread("a")).isEqualTo(1);
        assertThat(all("a")).isEmpty();
        assertThat(logs.deleteThread("a")).isZero();
    }
}
