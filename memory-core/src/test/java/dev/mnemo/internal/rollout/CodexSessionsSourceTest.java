package dev.mnemo.internal.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.RolloutSources;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.RolloutSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodexSessionsSourceTest {

    @TempDir
    Path sessions;

    @BeforeEach
    void copyFixturesIntoDatedFolders() throws IOException {
        for (Path fixture : Fixtures.all()) {
            String name = fixture.getFileName().toString();
            Path day = sessions.resolve(name.startsWith("rollout-")
                    ? name.substring(8, 12) + "/" + name.substring(13, 15) + "/" + name.substring(16, 18)
                    : "2026/06/05");
            Files.createDirectories(day);
            String target = name.startsWith("rollout-") ? name : "rollout-2026-06-05T04-58-20-" + name;
            Files.copy(fixture, day.resolve(target));
        }
    }

    @Test
    void scan_firstReturnsEveryReadableRolloutAndReportsTheRest() {
        CodexSessionsSource source = new CodexSessionsSource(sessions);

        List<ThreadInfo> threads = source.scan();

        // 5 whole sessions + the 2026 session + the 2025 session_meta line; 3 one-line fixtures lack session_meta.
        assertThat(threads).hasSize(7);
        assertThat(threads).extracting(ThreadInfo::source).containsOnly("vscode", "exec");
        assertThat(source.unreadable()).hasSize(3)
                .allSatisfy((path, reason) -> assertThat(reason).contains("session_meta"));
        assertThat(source.name()).isEqualTo("codex:" + sessions.toAbsolutePath().normalize());
    }

    @Test
    void scan_laterReturnsOnlyChangedAndNewFiles() throws IOException {
        CodexSessionsSource source = new CodexSessionsSource(sessions);
        source.scan();

        assertThat(source.scan()).isEmpty();

        Path changed = sessions.resolve("2026/06/05/rollout-2026-06-05T04-58-20-agent-history-real-session-01.jsonl");
        Files.setLastModifiedTime(changed, FileTime.from(Instant.parse("2030-01-01T00:00:00Z")));
        Path added = Files.createDirectories(sessions.resolve("2027/01/02"))
                .resolve("rollout-2027-01-02T03-04-05-0195aaaa-0000-7000-8000-000000000001.jsonl");
        Files.writeString(added, RolloutFilesTest.meta("\"source\":\"cli\"").replace("t-1",
                "0195aaaa-0000-7000-8000-000000000001") + "\n" + RolloutFilesTest.user("new work") + "\n");

        List<ThreadInfo> threads = source.scan();

        assertThat(threads).extracting(ThreadInfo::id).containsExactlyInAnyOrder(
                "019e9625-802f-7e91-840a-cfe88d14117a", "0195aaaa-0000-7000-8000-000000000001");
        assertThat(source.scan()).isEmpty();
    }

    @Test
    void scan_aNewSourceObjectStartsOverWithEverything() {
        new CodexSessionsSource(sessions).scan();

        assertThat(RolloutSources.codex(sessions).scan()).hasSize(7);
    }

    @Test
    void scan_ignoresFilesOutsideTheDatedLayoutAndReportsACorruptCompressedOne() throws IOException {
        Files.writeString(sessions.resolve("2026/06/05/notes.jsonl"), RolloutFilesTest.meta(""));
        Files.createDirectories(sessions.resolve("2026/06/05/deeper/still"));
        Files.writeString(sessions.resolve("2026/06/05/deeper/still/rollout-too-deep.jsonl"), RolloutFilesTest.meta(""));
        Path zst = sessions.resolve("2026/06/05/rollout-2026-06-05T00-00-00-z.jsonl.zst");
        Files.copy(CompressedFixtures.TRUNCATED, zst);
        CodexSessionsSource source = new CodexSessionsSource(sessions);

        assertThat(source.scan()).hasSize(7);
        assertThat(source.unreadable()).containsKey(zst);
        assertThat(source.unreadable().get(zst)).contains("corrupt or truncated zstd data");
    }

    @Test
    void scan_registersCompressedRolloutsLikeTheirPlainSources() throws IOException {
        CodexSessionsSource plainSource = new CodexSessionsSource(sessions);
        Map<String, ThreadInfo> plain = plainSource.scan().stream()
                .collect(Collectors.toMap(ThreadInfo::id, t -> t, (a, b) -> a));
        Path compressedSessions = Files.createDirectories(sessions.resolveSibling(sessions.getFileName() + "-zst"));
        Path day = Files.createDirectories(compressedSessions.resolve("2025/09/25"));
        Files.copy(CompressedFixtures.FULL_SESSION, day.resolve(CompressedFixtures.FULL_SESSION.getFileName()));
        Path day2026 = Files.createDirectories(compressedSessions.resolve("2026/06/05"));
        Files.copy(CompressedFixtures.SESSION_2026, day2026.resolve(CompressedFixtures.SESSION_2026.getFileName()));
        CodexSessionsSource source = new CodexSessionsSource(compressedSessions);

        List<ThreadInfo> threads = source.scan();

        assertThat(threads).hasSize(2);
        assertThat(source.unreadable()).isEmpty();
        for (ThreadInfo thread : threads) {
            ThreadInfo same = plain.get(thread.id());
            assertThat(thread.rolloutPath().toString()).endsWith(".jsonl.zst");
            assertThat(thread.toBuilder().rolloutPath(same.rolloutPath()).build()).isEqualTo(same);
        }
    }

    @Test
    void scan_ofAMissingFolderIsEmpty() {
        RolloutSource source = RolloutSources.codex(sessions.resolve("nope"));

        assertThat(source.scan()).isEmpty();
    }

    @Test
    void scan_neverChangesTheFolder() throws Exception {
        Map<Path, String> before = snapshot();

        CodexSessionsSource source = new CodexSessionsSource(sessions);
        source.scan();
        source.scan();

        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void scan_ofAFlatFolderOfRolloutsFindsThemAll() throws IOException {
        Path flat = Files.createDirectories(sessions.resolveSibling(sessions.getFileName() + "-flat"));
        try (Stream<Path> files = Files.walk(sessions)) {
            for (Path file : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                Files.copy(file, flat.resolve(file.getFileName()));
            }
        }
        Files.copy(CompressedFixtures.FULL_SESSION, flat.resolve("rollout-2025-10-02T00-00-00-compressed.jsonl.zst"));
        Files.writeString(flat.resolve("notes.jsonl"), RolloutFilesTest.meta(""));

        CodexSessionsSource source = new CodexSessionsSource(flat);

        assertThat(source.scan()).hasSize(8);
        assertThat(source.unreadable()).hasSize(3);
    }

    @Test
    void scan_readsTheDatedTreeAndRolloutsDirectlyInTheFolderTogether() throws IOException {
        Files.copy(CompressedFixtures.FULL_SESSION, sessions.resolve(CompressedFixtures.FULL_SESSION.getFileName()));
        Files.writeString(sessions.resolve("rollout-2027-01-02T03-04-05-flat.jsonl"),
                RolloutFilesTest.meta("\"source\":\"cli\"").replace("t-1", "0195aaaa-0000-7000-8000-000000000002")
                        + "\n" + RolloutFilesTest.user("flat work") + "\n");

        List<ThreadInfo> threads = new CodexSessionsSource(sessions).scan();

        assertThat(threads).hasSize(9).extracting(ThreadInfo::id).contains("0195aaaa-0000-7000-8000-000000000002");
    }

    @Test
    void isRolloutPath_acceptsYearMonthDayRolloutFilesAndRolloutsDirectlyInTheFolder() {
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("2026/01/31/rollout-x.jsonl"))).isTrue();
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("2026/01/31/rollout-x.jsonl.zst"))).isTrue();
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("rollout-x.jsonl"))).isTrue();
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("rollout-x.jsonl.zst"))).isTrue();
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("notes.jsonl"))).isFalse();
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("2026/06/rollout-x.jsonl"))).isFalse();
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("2026/1/31/rollout-x.jsonl"))).isFalse();
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("2026/01/31/other-x.jsonl"))).isFalse();
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("2026/01/31/rollout-x.json"))).isFalse();
    }

    private Map<Path, String> snapshot() throws IOException, NoSuchAlgorithmException {
        Map<Path, String> result = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sessions)) {
            for (Path file : files.collect(Collectors.toList())) {
                String state = Files.getLastModifiedTime(file).toString();
                if (Files.isRegularFile(file)) {
                    state += HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
                }
                result.put(file, state);
            }
        }
        return result;
    }
}
