package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher, {@code target/mnemo}, on the JDK running the build and on JDK 25 ({@code $MNEMO_JDK25},
 * else Temurin's Debian folder; without one, those tests are skipped, visibly): no command prints a
 * JVM warning. On JDK 24 and later the JVM warns when a library calls {@code sun.misc.Unsafe}'s
 * memory methods, as the zstd reader does for a compressed Codex session, unless the launcher allows
 * it; and the build's class-data archive is handed only to the JDK that made it, so that another
 * JDK never tries it (which, with the JVM's cds warnings on, says the archive is not valid for it).
 */
@Timeout(300)
class LauncherJdkIT {

    private static final String COMPRESSED_SESSION =
            "rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl.zst";

    /** A line the JVM prints of its own: {@code WARNING: ...}, or a warning or error of its unified logging. */
    private static final Pattern JVM_WARNING = Pattern.compile("WARNING|^\\[[^]]*\\]\\[(warning|error)");

    @TempDir
    Path dir;

    @Test
    void onThisJdk_aCommandReadingACompressedSession_printsNoJvmWarning() throws Exception {
        assertNoJvmWarning(dryRunOfACompressedSession(MnemoJar.javaHome()));
    }

    @Test
    void onJdk25_aCommandReadingACompressedSession_printsNoJvmWarning() throws Exception {
        assertNoJvmWarning(dryRunOfACompressedSession(jdk25()));
    }

    @Test
    void onJdk25_commandsThatOpenTheStore_printNoJvmWarning() throws Exception {
        String jdk = jdk25();
        Path home = dir.resolve("home");

        assertNoJvmWarning(launcher(jdk, Map.of(), "--home", home.toString(), "-q", "note", "a note"));
        assertNoJvmWarning(launcher(jdk, Map.of(), "--home", home.toString(), "status"));
    }

    @Test
    void onJdk25_theLauncherHandsTheJvmNoArchiveAnotherJdkMade() throws Exception {
        String jdk = jdk25();
        // The JVM's cds warnings on again (the launcher turns them off): an archive made by another
        // JDK would be named here as not valid for this one.
        Map<String, String> cdsWarnings = Map.of("MNEMO_JAVA_OPTS", "-Xlog:all=warning:stderr");
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));

        assertNoJvmWarning(launcher(jdk, cdsWarnings, "--version"));
        assertNoJvmWarning(launcher(jdk, cdsWarnings, "--home", home.toString(), "ls"));
    }

    /** {@code run --dry-run} over a folder holding one zstd-compressed Codex session, on {@code jdk}. */
    private String dryRunOfACompressedSession(String jdk) throws Exception {
        Path day = Files.createDirectories(dir.resolve("codex/sessions/2025/09/25"));
        Files.copy(compressedFixture(), day.resolve(COMPRESSED_SESSION));
        return launcher(jdk, Map.of(), "--home", dir.resolve("home").toString(), "run", "--dry-run", "--as-of",
                MnemoCliTest.AS_OF, "--codex-sessions", dir.resolve("codex/sessions").toString());
    }

    private static void assertNoJvmWarning(String stderr) {
        assertThat(stderr.lines()).as(stderr).noneMatch(line -> JVM_WARNING.matcher(line).find());
    }

    /** JDK 25's home; the test is skipped, saying where it looked, when there is none. */
    private static String jdk25() {
        String home = System.getenv().getOrDefault("MNEMO_JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64");
        Assumptions.assumeTrue(Files.isExecutable(Path.of(home, "bin", "java")),
                "no JDK 25 at " + home + " (set MNEMO_JDK25)");
        return home;
    }

    /** The build's launcher run with {@code JAVA_HOME=jdk}: its standard error, after a zero exit. */
    private String launcher(String jdk, Map<String, String> environment, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(MnemoJar.jar().resolveSibling("mnemo").toString()));
        command.addAll(List.of(args));
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().keySet().removeIf(name -> name.startsWith("MNEMO_") || name.startsWith("OPENAI_"));
        builder.environment().put("JAVA_HOME", jdk);
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(240, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("mnemo did not finish: " + command);
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(stderr).isZero();
        return stderr;
    }

    /** The zstd -3 copy of a real fixture that memory-core's tests use (see the README beside it). */
    private static Path compressedFixture() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("memory-core/src/test/resources/codex-rollouts-zst").resolve(COMPRESSED_SESSION);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("memory-core/src/test/resources/codex-rollouts-zst/" + COMPRESSED_SESSION
                + " not found above " + Path.of("").toAbsolutePath());
    }
}
