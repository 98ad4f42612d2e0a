package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The packaged {@code mnemo.jar} (and its {@code mnemo} launcher) run as a user runs them: exit
 * codes, standard output and error, {@code --help}, {@code --version}. The model, where one is
 * needed, is an in-process scripted Chat Completions endpoint (not a real model).
 */
@Timeout(300)
class CliProcessIT {

    /** The bundled samples are idle and young enough at this time (see {@link MnemoCliTest#AS_OF}). */
    private static final String AS_OF = MnemoCliTest.AS_OF;

    @TempDir
    Path dir;

    record Run(int exitCode, String out, String err) {}

    /** Runs {@code command} with the model variables of {@code environment} only (none inherited). */
    private Run run(Map<String, String> environment, List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().keySet().removeIf(key -> key.startsWith("MNEMO_") || key.startsWith("OPENAI_"));
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(240, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("mnemo did not finish: " + command);
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private Run mnemo(Map<String, String> environment, Path home, String... args) throws Exception {
        return run(environment, MnemoJar.command(home, args));
    }

    private Run mnemo(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(MnemoJar.java(), "-jar", MnemoJar.jar().toString()));
        command.addAll(List.of(args));
        return run(Map.of(), command);
    }

    private Path homeWithSamples() {
        Path home = dir.resolve("home");
        DemoSessions.install(home);
        return home;
    }

    // ---- exit codes of `run` ---------------------------------------------------------------------

    @Test
    void run_whenEveryPhaseSucceeds_exitsZero() throws Exception {
        Path home = homeWithSamples();
        try (ScriptedChatServer model = new ScriptedChatServer("Checks run with pnpm.")) {
            Run r = mnemo(model.environment(), home, "run", "--as-of", AS_OF);

            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.out()).contains("Phase 1: 2 claimed, 2 succeeded").contains("Phase 2: SUCCEEDED");
            assertThat(r.err()).doesNotContain("mnemo run:").doesNotContain("ERROR");
        }
    }

    @Test
    void run_skippedForADocumentedReason_exitsZero() throws Exception {
        Path home = homeWithSamples();
        try (ScriptedChatServer model = new ScriptedChatServer("Checks run with pnpm.")) {
            mnemo(model.environment(), home, "run", "--as-of", AS_OF);

            Run cooldown = mnemo(model.environment(), home, "run", "--phase2-only", "--as-of", AS_OF);
            Run nothingIdle = mnemo(model.environment(), home, "run", "--phase1-only");

            assertThat(cooldown.exitCode()).as(cooldown.err()).isZero();
            assertThat(cooldown.out()).contains("Phase 2: SKIPPED_COOLDOWN").contains("the cooldown ends at");
            assertThat(nothingIdle.exitCode()).as(nothingIdle.err()).isZero();
            assertThat(nothingIdle.out()).contains("Phase 1: 0 claimed");
        }
    }

    @Test
    void run_whenAnExtractionFails_exitsOneAndSaysWhichPhaseFailed() throws Exception {
        Path home = homeWithSamples();
        try (ScriptedChatServer model = new ScriptedChatServer("unused").malformedExtractions()) {
            Run r = mnemo(model.environment(), home, "run", "--as-of", AS_OF);

            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.out()).contains("Phase 1: 2 claimed, 0 succeeded, 0 with nothing to keep, 2 failed");
            assertThat(r.err()).contains("mnemo run: Phase 1 failed for 2 of 2 rollout(s)");
        }
    }

    @Test
    void run_withBadUsage_exitsTwo() throws Exception {
        Path home = homeWithSamples();

        Run both = mnemo(Map.of(), home, "run", "--phase1-only", "--phase2-only");
        Run noModel = mnemo(Map.of(), home, "run");
        Run badFlag = mnemo(Map.of(), home, "run", "--as-of", "yesterday");

        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("exclude each other");
        assertThat(noModel.exitCode()).isEqualTo(2);
        assertThat(noModel.err()).contains("needs a model").contains("MNEMO_MODEL");
        assertThat(badFlag.exitCode()).isEqualTo(2);
    }

    // ---- help, version, options anywhere ---------------------------------------------------------

    @Test
    void help_onEveryCommand_printsItsUsageAndExitsZero() throws Exception {
        for (String command : List.of("status", "run", "demo", "instructions", "ls", "read", "search", "note",
                "threads", "jobs", "logs", "history", "inputs", "rollback", "clear", "pending", "approve", "reject", "ui",
                "eval", "mcp")) {
            Run r = mnemo(command, "--help");

            assertThat(r.exitCode()).as(command).isZero();
            assertThat(r.out()).as(command).startsWith("Usage: mnemo " + command).contains("--home=DIR");
        }
        Run helpCommand = mnemo("help", "run");
        assertThat(helpCommand.exitCode()).isZero();
        assertThat(helpCommand.out()).startsWith("Usage: mnemo run").contains("Exit codes:");
        Run nested = mnemo("threads", "disable", "--help");
        assertThat(nested.exitCode()).isZero();
        assertThat(nested.out()).startsWith("Usage: mnemo threads disable");
    }

    @Test
    void version_printsTheBuildsVersion() throws Exception {
        Run r = mnemo("--version");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out().strip()).isEqualTo("mnemo " + MnemoCli.version());
        assertThat(MnemoCli.version()).isNotEqualTo("unknown").doesNotContain("${");
    }

    @Test
    void globalOptions_afterTheCommand_areAccepted() throws Exception {
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));

        Run status = mnemo("status", "--home", home.toString());
        Run read = mnemo("read", "MEMORY.md", "-v", "--home", home.toString());

        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(status.out()).contains("Home:                " + home);
        assertThat(read.exitCode()).as(read.err()).isZero();
        assertThat(read.out()).contains("gradle 8");
        assertThat(read.err()).contains("DEBUG");
    }

    @Test
    void status_printsWhatTheCommandPrintsInProcess() throws Exception {
        // main starts a warm-up thread beside picocli; the output must not notice.
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        StringWriter inProcess = new StringWriter();
        CommandLine commandLine = MnemoCli.commandLine(new MnemoCli(Map.of(), dir.resolve("user").toString(),
                env -> Optional.empty()));
        commandLine.setOut(new PrintWriter(inProcess));

        Run status = mnemo(Map.of(), home, "status");

        assertThat(commandLine.execute("--home", home.toString(), "status")).isZero();
        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(status.err()).isEmpty();
        assertThat(status.out()).startsWith("Home:                " + home).isEqualTo(inProcess.toString());
    }

    @Test
    void readOnlyCommand_onAMissingHome_exitsOneAndCreatesNothing() throws Exception {
        Path home = dir.resolve("missing");

        Run r = mnemo(Map.of(), home, "ls");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("mnemo: the home " + home + " does not exist (check --home or"
                + " $MNEMO_HOME; `mnemo run` or an agent creates it)");
        assertThat(home).doesNotExist();
    }

    @Test
    void verboseThreadSync_logsNewRolloutsOnlyWhenThereAreSome() throws Exception {
        Path home = homeWithSamples();

        Run first = mnemo(Map.of(), home, "-v", "threads", "--sync");
        Run second = mnemo(Map.of(), home, "-v", "threads", "--sync");

        assertThat(first.err()).contains("thread registry: 5 thread(s) added or updated");
        assertThat(second.err()).contains("Found 5 rollout(s)").doesNotContain("added or updated")
                .doesNotContain("registered");
    }

    // ---- the launcher and the demo's tips --------------------------------------------------------

    @Test
    void launcher_runsTheJar_andTheDemosTipsNameIt() throws Exception {
        Path launcher = MnemoJar.jar().resolveSibling("mnemo");
        assertThat(Files.isExecutable(launcher)).as(launcher + " is executable").isTrue();

        Run version = run(Map.of(), List.of(launcher.toString(), "--version"));
        assertThat(version.exitCode()).as(version.err()).isZero();
        assertThat(version.out()).startsWith("mnemo ");

        try (ScriptedChatServer model = new ScriptedChatServer("Checks run with pnpm.")) {
            Path home = dir.resolve("demo-home");
            Run demo = mnemo(model.environment(), home, "demo");

            assertThat(demo.exitCode()).as(demo.err()).isZero();
            assertThat(demo.out()).contains("See what an agent would be told:  " + launcher + " --home " + home
                    + " instructions");
            String tip = demo.out().lines().filter(l -> l.startsWith("Browse the memory folder:")).findFirst()
                    .orElseThrow().replaceFirst("Browse the memory folder: +", "");
            Run ls = run(Map.of(), List.of("sh", "-c", tip));
            assertThat(ls.exitCode()).as(ls.err()).isZero();
            assertThat(ls.out()).contains("MEMORY.md");
        }
    }

    @Test
    void launcher_handsTheJvmTheBuildsClassDataArchive_andMnemoCdsOffLeavesItOut() throws Exception {
        Path launcher = MnemoJar.jar().resolveSibling("mnemo");
        assertThat(MnemoJar.jar().resolveSibling("mnemo.jsa")).as("written by `mvn package`").isRegularFile();
        Map<String, String> logClassLoading = Map.of("JAVA_HOME", MnemoJar.javaHome(),
                "MNEMO_JAVA_OPTS", "-Xlog:class+load=info:stderr");

        Run archived = run(logClassLoading, List.of(launcher.toString(), "--version"));
        Map<String, String> off = new HashMap<>(logClassLoading);
        off.put("MNEMO_CDS", "off");
        Run fromJar = run(off, List.of(launcher.toString(), "--version"));

        assertThat(archived.exitCode()).as(archived.err()).isZero();
        assertThat(archived.err()).contains("dev.mnemo.cli.MnemoCli source: shared objects file");
        assertThat(fromJar.exitCode()).as(fromJar.err()).isZero();
        assertThat(fromJar.err()).contains("dev.mnemo.cli.MnemoCli source: file:");
        assertThat(archived.out()).isEqualTo(fromJar.out()).startsWith("mnemo ");
    }

    @Test
    void launcher_withAnArchiveThatDoesNotFitItsJar_runsWithoutIt_andSaysNothingAboutIt() throws Exception {
        Path copy = Files.createDirectories(dir.resolve("elsewhere"));
        for (String file : List.of("mnemo", "mnemo.jar", "mnemo.jsa")) {
            Files.copy(MnemoJar.jar().resolveSibling(file), copy.resolve(file));
        }
        copy.resolve("mnemo").toFile().setExecutable(true);

        // The archive names the jar it was made with; this copy is another file at another path.
        Run version = run(Map.of("JAVA_HOME", MnemoJar.javaHome()), List.of(copy.resolve("mnemo").toString(), "--version"));

        assertThat(version.exitCode()).as(version.err()).isZero();
        assertThat(version.out()).matches("mnemo \\S+\\R");
        assertThat(version.err()).isEmpty();
    }
}
