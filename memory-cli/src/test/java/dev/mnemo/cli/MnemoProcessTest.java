package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mnemo} as a user runs it: a separate JVM started with the CLI's own main class, classes and
 * dependencies (what {@code target/mnemo.jar} bundles), its logging configured as shipped, an
 * environment without model variables, and stdout and stderr read as a terminal would show them.
 */
class MnemoProcessTest {

    private static final String COMPRESSED_SESSION =
            "rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl.zst";

    @TempDir
    Path temp;

    record Result(int exitCode, String out, String err) {}

    private Result mnemo(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Duser.home=" + temp.resolve("user"), "-cp", System.getProperty("java.class.path"),
                MnemoCli.class.getName()));
        command.addAll(List.of(args));
        Path out = temp.resolve("stdout.txt");
        Path err = temp.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("MNEMO_") || name.startsWith("OPENAI_"));
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("mnemo " + String.join(" ", args) + " did not finish in 120 s");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void configValueOutOfRange_printsTheClampWarningWithoutVerbose() throws Exception {
        Path home = Files.createDirectories(temp.resolve("home"));
        Files.writeString(home.resolve("config.toml"), "[memories]\nmax_rollouts_per_startup = 500\n");

        Result r = mnemo("--home", home.toString(), "status");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("WARN").contains("memories.max_rollouts_per_startup = 500 is outside 1..128; using 128");
        assertThat(r.err()).doesNotContain("DEBUG");
        // as simplelogger.properties asks: time of day, the thread that logged, level, short name
        assertThat(r.err().lines()).anyMatch(line -> line.matches(
                "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[main\\] WARN ConfigClamps - memories\\.max_rollouts_per_startup .*"));
    }

    @Test
    void codexSessions_flatFolderOfPlainAndCompressedRollouts_isReadAndCounted() throws Exception {
        Path flat = Files.createDirectories(temp.resolve("rollouts"));
        for (Path session : DemoSessions.install(temp.resolve("demo"))) {
            if (!COMPRESSED_SESSION.startsWith(session.getFileName().toString())) {
                Files.copy(session, flat.resolve(session.getFileName()));
            }
        }
        Files.copy(compressedFixture(COMPRESSED_SESSION), flat.resolve(COMPRESSED_SESSION));
        Path home = temp.resolve("home");

        Result r = mnemo("--home", home.toString(), "run", "--dry-run", "--as-of", MnemoCliTest.AS_OF,
                "--codex-sessions", flat.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("Found 5 rollout(s) in " + flat.toAbsolutePath().normalize()
                + ": 0 in YYYY/MM/DD subfolders, 5 directly in the folder");
        assertThat(r.out()).contains("Threads (5)").contains("019982b8-3422-79e0-8b3b-05abaf4f3c3e")
                .doesNotContain("unreadable");
    }

    @Test
    void dryRun_ofACompressedCodexRollout_printsItsPhase1Request() throws Exception {
        Path day = Files.createDirectories(temp.resolve("codex/sessions/2025/09/25"));
        Files.copy(compressedFixture(COMPRESSED_SESSION), day.resolve(COMPRESSED_SESSION));

        Result r = mnemo("--home", temp.resolve("home").toString(), "run", "--dry-run", "--as-of", MnemoCliTest.AS_OF,
                "--codex-sessions", temp.resolve("codex/sessions").toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Threads (1)", "1 would be claimed")
                .contains("Phase 1 request for thread 019982b8-3422-79e0-8b3b-05abaf4f3c3e")
                .contains("=== USER message").contains(COMPRESSED_SESSION);
    }

    @Test
    void codexSessions_folderWithoutRollouts_saysWhatItExpected() throws Exception {
        Path empty = Files.createDirectories(temp.resolve("not-sessions"));
        Files.writeString(empty.resolve("notes.txt"), "no rollouts here\n");

        Result r = mnemo("--home", temp.resolve("home").toString(), "run", "--dry-run", "--codex-sessions",
                empty.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("Found no rollouts in " + empty.toAbsolutePath().normalize())
                .contains("YYYY/MM/DD subfolders (Codex's sessions folder) or directly in it");
    }

    /** The zstd -3 copies of real fixtures that memory-core's tests use (see the README beside them). */
    private static Path compressedFixture(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("memory-core/src/test/resources/codex-rollouts-zst").resolve(name);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("memory-core/src/test/resources/codex-rollouts-zst/" + name + " not found above "
                + Path.of("").toAbsolutePath());
    }
}
