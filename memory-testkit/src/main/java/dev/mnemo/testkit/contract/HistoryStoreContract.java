package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.mnemo.HistoryEntry;
import dev.mnemo.spi.HistoryStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link HistoryStore} must do: Codex's message-history tests ported
 * ({@code lookup_reads_history_entries}, {@code history_metadata_counts_newlines_across_read_boundaries},
 * {@code lookup_uses_stable_log_id_after_appends}, {@code append_entry_trims_history_when_beyond_max_bytes},
 * {@code append_entry_trims_history_to_soft_cap}), plus the store's own rules: lines counted at the
 * UTF-8 size of {@link HistoryStore#jsonLine}, the newest line never trimmed, an offset never naming
 * another entry after a trim or a removal, case-insensitive search, concurrent appends losing
 * nothing. A store's test extends it and opens an empty store.
 */
public abstract class HistoryStoreContract {

    /** Seconds since the epoch every line of these tests carries. */
    protected static final long TS = 1_700_000_000L;

    /** The store under test, opened before each test. */
    protected HistoryStore history;

    /**
     * An empty history store.
     *
     * @return a store holding no line
     * @throws Exception if the store cannot be opened
     */
    protected abstract HistoryStore openHistory() throws Exception;

    /**
     * Releases what {@link #openHistory} opened; by default nothing.
     *
     * @throws Exception if releasing fails; the test then fails
     */
    protected void closeHistory() throws Exception {
    }

    @BeforeEach
    void openHistoryStore() throws Exception {
        history = openHistory();
    }

    @AfterEach
    void closeHistoryStore() throws Exception {
        closeHistory();
    }

    /**
     * The size a line counts for against {@code max_bytes}.
     *
     * @param session the line's session id
     * @param text the line's text
     * @return the size in bytes of the line's UTF-8 JSON, stamped {@link #TS}
     */
    protected static long lineBytes(String session, String text) {
        return HistoryStore.jsonLine(session, TS, text).getBytes(StandardCharsets.UTF_8).length;
    }

    /** What the kept lines add up to. */
    private long keptBytes() {
        return history.recent(Integer.MAX_VALUE).stream().mapToLong(e -> lineBytes(e.sessionId(), e.text())).sum();
    }

    private List<String> texts() {
        return history.recent(Integer.MAX_VALUE).stream().map(HistoryEntry::text).toList();
    }

    /** An old offset finds nothing or the very entry it was given for; never another one. */
    private void assertNeverAnotherEntry(HistoryEntry old) {
        Optional<HistoryEntry> found = history.entry(old.offset());
        found.ifPresent(entry -> assertThat(entry).isEqualTo(old));
    }

    // ---- ported from Codex's message-history tests ---------------------------------------------

    @Test
    void lookup_readsHistoryEntries() {
        history.append("thread-1", TS, "first", 0);
        history.append("thread-2", TS + 1, "second", 0);

        List<HistoryEntry> recent = history.recent(10);
        assertThat(recent).extracting(HistoryEntry::sessionId, HistoryEntry::ts, HistoryEntry::text)
                .containsExactly(tuple("thread-1", TS, "first"), tuple("thread-2", TS + 1, "second"));
        assertThat(history.entry(recent.get(0).offset())).contains(recent.get(0));
        assertThat(history.entry(recent.get(1).offset())).contains(recent.get(1));
    }

    @Test
    void manyEntries_areAllCountedAndFound() {
        String text = "x".repeat(300);
        for (int i = 0; i < 100; i++) { // ~33 KB: past any 8 KB read buffer
            history.append("thread", TS, text + i, 0);
        }
        List<HistoryEntry> all = history.recent(1_000);
        assertThat(all).hasSize(100);
        assertThat(all.get(99).text()).isEqualTo(text + 99);
        assertThat(all).extracting(HistoryEntry::offset).doesNotHaveDuplicates();
        assertThat(history.entry(all.get(57).offset())).contains(all.get(57));
    }

    @Test
    void lookup_offsetsStayValidAcrossAppends() {
        history.append("thread", TS, "kept", 0);
        HistoryEntry first = history.recent(1).get(0);
        for (int i = 0; i < 20; i++) {
            history.append("thread", TS, "more " + i, 0);
        }
        assertThat(history.entry(first.offset())).contains(first);
    }

    @Test
    void append_trimsHistoryWhenBeyondMaxBytes() {
        long max = lineBytes("t", "a".repeat(40)) + lineBytes("t", "b".repeat(40)) - 1;
        history.append("t", TS, "a".repeat(40), max);
        history.append("t", TS, "b".repeat(40), max);

        assertThat(texts()).containsExactly("b".repeat(40));
        assertThat(keptBytes()).isLessThanOrEqualTo(max);
    }

    @Test
    void append_trimsHistoryToSoftCap() {
        // Three equal lines of L bytes, max 2.25·L: after the third, dropping the oldest leaves 2·L,
        // within max_bytes but above the soft cap of 1.8·L, so the second goes as well.
        long max = lineBytes("t", "c".repeat(60)) * 9 / 4;
        history.append("t", TS, "a".repeat(60), max);
        history.append("t", TS, "b".repeat(60), max);
        history.append("t", TS, "c".repeat(60), max);

        assertThat(texts()).containsExactly("c".repeat(60));
    }

    // ---- beyond Codex ----------------------------------------------------------------------------

    @Test
    void withinMaxBytes_nothingIsTrimmed_andZeroMeansNoCap() {
        long max = lineBytes("t", "one") + lineBytes("t", "two");
        history.append("t", TS, "one", max);
        history.append("t", TS, "two", max);
        assertThat(texts()).containsExactly("one", "two");

        for (int i = 0; i < 50; i++) {
            history.append("t", TS, "uncapped " + i, 0);
        }
        assertThat(texts()).hasSize(52);
    }

    @Test
    void append_trimsDownToTheSoftCap_keepingTheNewestLinesThatFit() {
        long line = lineBytes("t", "m00");
        long max = line * 10 + 5; // soft cap 8 lines and a few bytes
        for (int i = 0; i < 11; i++) {
            history.append("t", TS, String.format("m%02d", i), max);
        }
        // The 11th line passed max_bytes: down to the 8 newest lines, the soft cap.
        assertThat(texts()).containsExactly("m03", "m04", "m05", "m06", "m07", "m08", "m09", "m10");
        assertThat(keptBytes()).isLessThanOrEqualTo((long) Math.floor(max * HistoryStore.SOFT_CAP_RATIO));
    }

    @Test
    void append_countsLinesInUtf8_likeTheFile() {
        String wide = "é".repeat(40); // 80 bytes in UTF-8, 40 chars
        long max = lineBytes("t", wide) * 2 - 1;
        history.append("t", TS, wide, max);
        history.append("t", TS, wide + "!", max);
        assertThat(texts()).containsExactly(wide + "!");
    }

    @Test
    void append_neverDropsTheNewestLine_evenWhenItAloneExceedsMaxBytes() {
        history.append("t", TS, "old", 10);
        history.append("t", TS, "n".repeat(100), 10);
        assertThat(texts()).containsExactly("n".repeat(100));
    }

    @Test
    void anyText_roundTrips() {
        String text = "say \"hi\"\nplease \\ tab\t ü 🙂 </script>";
        history.append("019a-thread", TS, text, 0);
        assertThat(history.recent(1)).extracting(HistoryEntry::sessionId, HistoryEntry::ts, HistoryEntry::text)
                .containsExactly(tuple("019a-thread", TS, text));
    }

    @Test
    void entry_afterATrim_findsNothingForATrimmedLine_andNeverAnotherEntry() {
        String text = "m".repeat(50);
        long max = lineBytes("t", text + "0") * 3; // room for three lines
        history.append("t", TS, text + "0", max);
        history.append("t", TS, text + "1", max);
        List<HistoryEntry> before = history.recent(10);
        history.append("t", TS, text + "2", max);
        history.append("t", TS, text + "3", max); // trims: the first line goes, maybe the second

        assertThat(texts()).doesNotContain(text + "0").endsWith(text + "3");
        assertThat(history.entry(before.get(0).offset())).isEmpty();
        assertNeverAnotherEntry(before.get(1));
        List<HistoryEntry> after = history.recent(10);
        for (HistoryEntry entry : after) {
            assertThat(history.entry(entry.offset())).contains(entry);
        }
    }

    @Test
    void removeSession_removesOnlyThatThreadsLines_andMakesTheirOffsetsFindNothing() {
        history.append("keep", TS, "a", 0);
        history.append("drop", TS, "b", 0);
        history.append("keep", TS, "c", 0);
        List<HistoryEntry> before = history.recent(10);

        assertThat(history.removeSession("drop")).isEqualTo(1);
        assertThat(texts()).containsExactly("a", "c");
        assertThat(history.entry(before.get(1).offset())).isEmpty();
        assertNeverAnotherEntry(before.get(0));
        assertNeverAnotherEntry(before.get(2));
        assertThat(history.removeSession("drop")).isZero();
        assertThat(history.removeSession("never there")).isZero();
    }

    @Test
    void anOffsetNeverNamesALaterEntry_afterTheNewestLinesWereRemoved() {
        history.append("keep", TS, "kept", 0);
        history.append("drop", TS, "dropped", 0);
        HistoryEntry dropped = history.recent(1).get(0);
        history.removeSession("drop");
        history.append("later", TS, "later", 0);

        assertThat(history.entry(dropped.offset())).isEmpty();
        HistoryEntry later = history.recent(1).get(0);
        assertThat(history.entry(later.offset())).contains(later);
    }

    @Test
    void entry_ofAnOffsetNeverGiven_findsNothing() {
        assertThat(history.entry(0)).isEmpty();
        history.append("t", TS, "only", 0);
        assertThat(history.entry(-1)).isEmpty();
        assertThat(history.entry(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void recent_returnsTheNewestLast_andHonoursTheLimit() {
        assertThat(history.recent(5)).isEmpty();
        for (int i = 0; i < 5; i++) {
            history.append("t", TS, "m" + i, 0);
        }
        assertThat(history.recent(2)).extracting(HistoryEntry::text).containsExactly("m3", "m4");
        assertThat(history.recent(0)).isEmpty();
        assertThatThrownBy(() -> history.recent(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    @Test
    void search_ignoresCase_returnsTheNewestMatchesLast_andHonoursTheLimit() {
        history.append("a", TS, "Deploy to STAGING", 0);
        history.append("b", TS, "unrelated", 0);
        history.append("a", TS, "deploy to production", 0);
        history.append("c", TS, "re-Deploy", 0);

        assertThat(history.search("DEPLOY", 10)).extracting(HistoryEntry::text)
                .containsExactly("Deploy to STAGING", "deploy to production", "re-Deploy");
        assertThat(history.search("deploy", 2)).extracting(HistoryEntry::text)
                .containsExactly("deploy to production", "re-Deploy");
        assertThat(history.search("staging", 10)).singleElement().satisfies(
                found -> assertThat(history.entry(found.offset())).contains(found));
        assertThat(history.search("nowhere", 10)).isEmpty();
        assertThat(history.search("%", 10)).as("no pattern characters").isEmpty();
    }

    @Test
    void appendsFromManyThreads_loseNoLine_andKeepTheTrimInvariant() throws Exception {
        int threads = 4;
        int perThread = 50;
        long max = 4_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String session = "thread-" + t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        history.append(session, TS, "message " + i + " " + "z".repeat(i % 40), 0);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(history.recent(10_000)).hasSize(threads * perThread);
        assertThat(history.recent(10_000)).extracting(HistoryEntry::offset).doesNotHaveDuplicates();

        history.append("last", TS, "trims everything older", max);
        assertThat(keptBytes()).isLessThanOrEqualTo((long) Math.floor(max * HistoryStore.SOFT_CAP_RATIO));
        assertThat(texts()).last().isEqualTo("trims everything older");
    }
}
