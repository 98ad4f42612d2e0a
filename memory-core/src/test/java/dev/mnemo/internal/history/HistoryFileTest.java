package dev.mnemo.internal.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.HistoryConfig;
import dev.mnemo.HistoryEntry;
import dev.mnemo.internal.redact.DefaultSecretRedactor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The message history file: Codex's format and trimming, plus redaction, mode 0600 and stale offsets. */
class HistoryFileTest {

    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(1_700_000_000L), ZoneOffset.UTC);

    @TempDir
    Path home;

    private EngineHistory history(HistoryConfig config) {
        return new EngineHistory(new HistoryFile(home), config, new DefaultSecretRedactor(), CLOCK);
    }

    private EngineHistory history() {
        return history(HistoryConfig.defaults());
    }

    private Path file() {
        return home.resolve(HistoryFile.FILE_NAME);
    }

    private static String line(String session, String text) {
        return "{\"session_id\":\"" + session + "\",\"ts\":1700000000,\"text\":\"" + text + "\"}\n";
    }

    // ---- ported from Codex's message-history tests ---------------------------------------------

    @Test
    void lookup_readsHistoryEntries() {
        EngineHistory history = history();
        history.append("thread-1", "first");
        history.append("thread-2", "second");

        List<HistoryEntry> recent = history.recent(10);
        assertThat(recent).extracting(HistoryEntry::sessionId, HistoryEntry::ts, HistoryEntry::text)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("thread-1", 1_700_000_000L, "first"),
                        org.assertj.core.groups.Tuple.tuple("thread-2", 1_700_000_000L, "second"));
        assertThat(history.entry(recent.get(0).offset())).contains(recent.get(0));
        assertThat(history.entry(recent.get(1).offset())).contains(recent.get(1));
    }

    @Test
    void entries_areCountedAcrossReadBufferBoundaries() {
        EngineHistory history = history();
        String text = "x".repeat(300);
        for (int i = 0; i < 100; i++) { // ~33 KB: several of the reader's 8 KB buffers
            history.append("thread", text + i);
        }
        List<HistoryEntry> all = history.recent(1_000);
        assertThat(all).hasSize(100);
        assertThat(all.get(99).text()).isEqualTo(text + 99);
        assertThat(all).extracting(e -> HistoryOffsets.line(e.offset())).containsExactlyElementsOf(
                java.util.stream.LongStream.range(0, 100).boxed().toList());
        assertThat(history.entry(all.get(57).offset())).contains(all.get(57));
    }

    @Test
    void lookup_offsetsStayValidAcrossAppends() {
        EngineHistory history = history();
        history.append("thread", "kept");
        HistoryEntry first = history.recent(1).get(0);
        for (int i = 0; i < 20; i++) {
            history.append("thread", "more " + i);
        }
        assertThat(history.entry(first.offset())).contains(first);
    }

    @Test
    void append_trimsHistoryWhenBeyondMaxBytes() throws Exception {
        String first = line("t", "a".repeat(40));
        String second = line("t", "b".repeat(40));
        long max = first.length() + second.length() - 1;
        EngineHistory history = history(HistoryConfig.defaults().withMaxBytes(max));
        history.append("t", "a".repeat(40));
        history.append("t", "b".repeat(40));

        assertThat(Files.readString(file())).isEqualTo(second);
        assertThat(Files.size(file())).isLessThanOrEqualTo(max);
    }

    @Test
    void append_trimsHistoryToSoftCap() throws Exception {
        // Three equal lines of L bytes, max 2.25·L: after the third, dropping the oldest leaves 2·L,
        // within max_bytes but above the soft cap of 1.8·L, so the second goes as well.
        String third = line("t", "c".repeat(60));
        int length = third.length();
        long max = length * 9L / 4;
        EngineHistory history = history(HistoryConfig.defaults().withMaxBytes(max));
        history.append("t", "a".repeat(60));
        history.append("t", "b".repeat(60));
        history.append("t", "c".repeat(60));

        assertThat(Files.readString(file())).isEqualTo(third);
    }

    // ---- beyond Codex ----------------------------------------------------------------------------

    @Test
    void append_writesCodexLineFormat() throws Exception {
        EngineHistory history = history();
        history.append("019a-thread", "say \"hi\"\nplease");
        assertThat(Files.readString(file()))
                .isEqualTo("{\"session_id\":\"019a-thread\",\"ts\":1700000000,\"text\":\"say \\\"hi\\\"\\nplease\"}\n");
    }

    @Test
    void append_neverDropsTheNewestLine_evenWhenItAloneExceedsMaxBytes() throws Exception {
        EngineHistory history = history(HistoryConfig.defaults().withMaxBytes(10));
        history.append("t", "old");
        history.append("t", "n".repeat(100));
        assertThat(history.recent(10)).extracting(HistoryEntry::text).containsExactly("n".repeat(100));
    }

    @Test
    void append_redactsSecretsBeforeWriting() throws Exception {
        EngineHistory history = history();
        history.append("t", "my key is sk-abcdefghijklmnopqrstuvwxyz123456 ok");
        String content = Files.readString(file());
        assertThat(content).doesNotContain("sk-abcdefghijklmnopqrstuvwxyz123456").contains("[REDACTED_SECRET]");
        assertThat(history.recent(1).get(0).text()).isEqualTo("my key is [REDACTED_SECRET] ok");
    }

    @Test
    void append_keepsTheFileAtMode0600_andRestoresIt() throws Exception {
        EngineHistory history = history();
        history.append("t", "one");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file()))).isEqualTo("rw-------");
        Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-r--r--"));
        history.append("t", "two");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file()))).isEqualTo("rw-------");
    }

    @Test
    void persistenceNone_writesNothing() {
        EngineHistory history = history(HistoryConfig.defaults().withPersistence(HistoryConfig.Persistence.NONE));
        assertThat(history.append("t", "not kept")).isFalse();
        assertThat(file()).doesNotExist();
        assertThat(history.recent(5)).isEmpty();
    }

    @Test
    void blankText_isNotWritten() {
        EngineHistory history = history();
        assertThat(history.append("t", "  \n")).isFalse();
        assertThat(file()).doesNotExist();
    }

    @Test
    void entry_afterATrim_reportsTheOffsetStale_whereCodexWouldReturnAnotherEntry() {
        String text = "m".repeat(50);
        long max = line("t", text + "0").length() * 3L; // room for three lines
        EngineHistory history = history(HistoryConfig.defaults().withMaxBytes(max));
        history.append("t", text + "0");
        history.append("t", text + "1");
        List<HistoryEntry> before = history.recent(10);
        history.append("t", text + "2");
        history.append("t", text + "3"); // trims: line 0 now holds what was line 1 or later

        assertThat(history.entry(before.get(0).offset())).isEmpty();
        assertThat(history.entry(before.get(1).offset())).isEmpty();
        List<HistoryEntry> after = history.recent(10);
        assertThat(after).isNotEmpty();
        assertThat(history.entry(after.get(0).offset())).contains(after.get(0));
        assertThat(HistoryOffsets.line(after.get(0).offset())).isZero();
    }

    @Test
    void removeSession_removesOnlyThatThreadsLines_andMakesOldOffsetsStale() {
        EngineHistory history = history();
        history.append("keep", "a");
        history.append("drop", "b");
        history.append("keep", "c");
        HistoryEntry c = history.recent(1).get(0);

        assertThat(history.removeSession("drop")).isEqualTo(1);
        assertThat(history.recent(10)).extracting(HistoryEntry::text).containsExactly("a", "c");
        assertThat(history.entry(c.offset())).isEmpty();
        assertThat(history.removeSession("drop")).isZero();
    }

    @Test
    void aLineCutShortByACrash_staysAlone_andTheNextAppendIsWhole() throws Exception {
        EngineHistory history = history();
        history.append("t", "whole");
        Files.writeString(file(), "{\"session_id\":\"t\",\"ts\":1,\"te", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND);
        history.append("t", "after");
        assertThat(history.recent(10)).extracting(HistoryEntry::text).containsExactly("whole", "after");
    }

    @Test
    void recent_returnsTheNewestLast_andHonoursTheLimit() {
        EngineHistory history = history();
        for (int i = 0; i < 5; i++) {
            history.append("t", "m" + i);
        }
        assertThat(history.recent(2)).extracting(HistoryEntry::text).containsExactly("m3", "m4");
        assertThat(history.recent(0)).isEmpty();
        assertThat(history.search("M2", 10)).extracting(HistoryEntry::text).containsExactly("m2");
    }

    @Test
    void replacedFile_makesOldOffsetsStale() throws Exception {
        EngineHistory history = history();
        history.append("t", "before");
        HistoryEntry before = history.recent(1).get(0);
        Files.delete(file());
        history.append("t", "after");
        assertThat(history.entry(before.offset())).isEmpty();
    }

    @Test
    void threadsOfOneJvm_appendConcurrently_withoutLosingOrTearingLines() throws Exception {
        EngineHistory history = history(HistoryConfig.defaults().withMaxBytes(1L << 30));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                String session = "thread-" + t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 250; i++) {
                        history.append(session, "message " + i + " " + "z".repeat(i % 40));
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        List<String> lines = Files.readAllLines(file());
        assertThat(lines).hasSize(2_000);
        assertThat(history.recent(10_000)).hasSize(2_000);
    }
}
