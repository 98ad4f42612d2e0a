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
    void scan_ignoresFilesOutsideTheDatedLayoutAndSkipsCompressedOnes() throws IOException {
        Files.writeString(sessions.resolve("rollout-top-level.jsonl"), RolloutFilesTest.meta(""));
        Files.createDirectories(sessions.resolve("2026/06"));
        Files.writeString(sessions.resolve("2026/06/rollout-month-level.jsonl"), RolloutFilesTest.meta(""));
        Files.writeString(sessions.resolve("2026/06/05/notes.jsonl"), RolloutFilesTest.meta(""));
        Path zst = sessions.resolve("2026/06/05/rollout-2026-06-05T00-00-00-z.jsonl.zst");
        Files.write(zst, new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD});
        CodexSessionsSource source = new CodexSessionsSource(sessions);

        assertThat(source.scan()).hasSize(7);
        assertThat(source.unreadable()).containsKey(zst);
        assertThat(source.unreadable().get(zst)).contains("zstd");
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
    void isRolloutPath_acceptsOnlyYearMonthDayRolloutFiles() {
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("2026/01/31/rollout-x.jsonl"))).isTrue();
        assertThat(CodexSessionsSource.isRolloutPath(Path.of("2026/01/31/rollout-x.jsonl.zst"))).isTrue();
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
