package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.ProjectKeys;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadInfo;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.testkit.ProjectMemories;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The commands against real homes (SQLite + git) in a temp folder, through picocli as {@code main} runs them. */
class MnemoCliTest {

    /** The five bundled samples are idle and young enough at this time (their last update is 2025-09-25T21:15Z). */
    static final String AS_OF = "2025-09-26T05:00:00Z";

    @TempDir
    Path temp;

    record Result(int exitCode, String out, String err) {}

    private Result mnemo(LanguageModel model, String... args) {
        return run(temp, model, args);
    }

    /** Runs the CLI as {@code main} does, with {@code temp/user} as the user's home and {@code model} (may be null). */
    static Result run(Path temp, LanguageModel model, String... args) {
        return run(temp, Map.of(), "", model, args);
    }

    /** {@link #run(Path, LanguageModel, String...)} with {@code environment} and {@code stdin} as standard input. */
    static Result run(Path temp, Map<String, String> environment, String stdin, LanguageModel model, String... args) {
        MnemoCli cli = new MnemoCli(environment, temp.resolve("user").toString(), env -> Optional.ofNullable(model),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        CommandLine commandLine = MnemoCli.commandLineFor(cli, StartupWarmUp.none(), args); // as main() builds it
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    private Result mnemo(String... args) {
        return mnemo(null, args);
    }

    private Path home() {
        return temp.resolve("home");
    }

    @Test
    void commandsNamedIn_isWhatTheArgumentsNameOrEveryCommand() {
        assertThat(MnemoCli.commandsNamedIn(new String[] {"--home", "h", "status"})).containsExactly("status");
        assertThat(MnemoCli.commandsNamedIn(new String[] {"search", "status", "-q"})).containsExactly("status", "search");
        assertThat(MnemoCli.commandsNamedIn(new String[] {"threads", "disable", "t1"})).containsExactly("threads");
        List<String> every = MnemoCli.commandsNamedIn(new String[0]);
        assertThat(every).contains("status", "run", "mcp", "ui", "pending", "approve", "reject", "help", "inputs", "logs",
                "jobs").hasSize(22);
        assertThat(MnemoCli.commandsNamedIn(new String[] {"--version"})).isEqualTo(every);
        assertThat(MnemoCli.commandsNamedIn(new String[] {"stauts"})).isEqualTo(every);
        assertThat(MnemoCli.commandsNamedIn(new String[] {"status", "--help"})).isEqualTo(every);
        assertThat(MnemoCli.commandsNamedIn(new String[] {"help", "status"})).isEqualTo(every);
    }

    @Test
    void usageErrorBeforeANamedCommand_stillListsEveryCommand() {
        Result r = mnemo("--no-such-option", "status");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--no-such-option").contains("status", "run", "instructions", "mcp", "eval");
    }

    @Test
    void helpForOneCommand_andAMistypedCommand_workAsWithEveryCommandRegistered() {
        assertThat(mnemo("help", "status").out()).contains("Show the pipeline's state");
        assertThat(mnemo("status", "--help").out()).contains("Show the pipeline's state");
        Result mistyped = mnemo("stauts");
        assertThat(mistyped.exitCode()).isEqualTo(2);
        assertThat(mistyped.err()).contains("status");
    }

    @Test
    void mcpHelp_listsOnlyTheOptionsThatApplyToMcp() {
        Result r = mnemo("mcp", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("--allow-notes", "--max-output-tokens", "--home", "--verbose")
                .doesNotContain("--model", "--base-url", "--api", "--reasoning-effort", "--quiet");
        assertThat(mnemo("status", "--help").out()).contains("--model");
    }

    @Test
    void mcp_maxOutputTokensBelowTheMinimum_isAUsageErrorNamingTheValue() {
        Result r = mnemo("--home", home().toString(), "mcp", "--max-output-tokens", "10");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--max-output-tokens must be at least 256, was 10");
    }

    @Test
    void status_onAHandSeededHome_reportsTheFilesAndNoState_andCreatesNothing() throws IOException {
        Path home = MnemoJar.homeWithMemories(home());
        List<Path> before;
        try (var files = Files.walk(home)) {
            before = files.sorted().toList();
        }

        Result text = mnemo("--home", home.toString(), "status");
        Result json = mnemo("--home", home.toString(), "status", "--json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("State:               none (no mnemo.sqlite")
                .containsPattern("MEMORY\\.md +\\d+ bytes").containsPattern("skills/ +1 files")
                .contains("memory_summary.md");
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"state\" : null").contains("\"skills/\" : \"1 files\"");
        try (var files = Files.walk(home)) {
            assertThat(files.sorted().toList()).isEqualTo(before);
        }
    }

    @Test
    void demo_withoutModel_explainsWhatToSetAndShowsTheDryRunOfTheBundledSessions() {
        Result r = mnemo("--home", home().toString(), "demo");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("MNEMO_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "MNEMO_MODEL_API")
                .contains("Threads (5)", "5 would be claimed")
                .contains("Phase 1 request for thread 019982b8-3422-79e0-8b3b-05abaf4f3c3e")
                .contains("=== output schema stage1_memory (strict)")
                .contains("=== USER message");
        assertThat(home().resolve("sessions/2025/09/25")).isDirectory();
        assertThat(home().resolve("memories/MEMORY.md")).doesNotExist();
        assertThat(mnemo("--home", home().toString(), "status").out()).contains("enabled 5").contains("memory_stage1               done 0, error 0, pending 0, running 0")
                .contains("Last consolidation:  never");
    }

    @Test
    void runDryRun_reportsWhyThreadsAreNotClaimedAtTheRealTime() {
        DemoSessions.install(home());

        Result r = mnemo("--home", home().toString(), "run", "--dry-run");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("TOO_OLD").doesNotContain("WOULD_CLAIM")
                .contains("No thread would be claimed");
    }

    @Test
    void runDryRun_json_carriesTheWholeRequest() throws IOException {
        DemoSessions.install(home());

        Result r = mnemo("--home", home().toString(), "run", "--dry-run", "--json", "--as-of", AS_OF);

        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        assertThat(json.path("candidates")).hasSize(5);
        String text = json.path("first_request").path("messages").get(0).path("text").asText();
        assertThat(text).doesNotContain("characters not shown here").hasSizeGreaterThan(DryRunReport.HEAD_CHARS);
    }

    @Test
    void run_withScriptedModel_extractsConsolidatesAndEveryReadCommandSeesTheResult() {
        DemoSessions.install(home());
        RuleScriptedModel model = new RuleScriptedModel();
        String h = home().toString();

        Result run = mnemo(model, "--home", h, "run", "--as-of", AS_OF);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("phase 1: claimed 2 rollout(s)")
                .contains("Phase 1: 2 claimed, 2 succeeded").contains("Phase 2: SUCCEEDED, 2 input(s)");
        assertThat(mnemo("--home", h, "instructions").out()).contains(RuleScriptedModel.SUMMARY_LINE)
                .contains("MEMORY_SUMMARY BEGINS");
        assertThat(mnemo("--home", h, "ls").out()).contains("MEMORY.md", "memory_summary.md", "rollout_summaries/");
        assertThat(mnemo("--home", h, "read", "MEMORY.md").out()).contains("tests: pnpm test");
        assertThat(mnemo("--home", h, "search", "PNPM", "-i").out()).contains("MEMORY.md:2:");
        Result status = mnemo("--home", h, "status", "--json");
        assertThat(status.out()).contains("\"stage1_memories\" : 2").contains("\"last_consolidation\" : \"2025-09-26T05:00:00Z\"");
        Result history = mnemo("--home", h, "history");
        assertThat(history.out()).contains("2 input(s)");
        assertThat(mnemo("--home", h, "threads").out().lines()).hasSize(5);
    }

    @Test
    void note_goesThroughTheMemoryToolAndAppearsUnderAdHocNotes() throws IOException {
        Result r = mnemo("--home", home().toString(), "note", "Always", "use", "pnpm, never npm");

        assertThat(r.exitCode()).as(r.err()).isZero();
        try (var files = Files.walk(home().resolve("memories/extensions/ad_hoc"))) {
            Path note = files.filter(p -> p.getFileName().toString().endsWith("-always-use-pnpm-never-npm.md"))
                    .findFirst().orElseThrow();
            assertThat(Files.readString(note, StandardCharsets.UTF_8)).contains("Always use pnpm, never npm");
        }
        assertThat(mnemo("--home", home().toString(), "read", "../mnemo.sqlite").exitCode()).isEqualTo(1);
    }

    @Test
    void threads_changeModesForgetAndRefuseUnknownIds() {
        DemoSessions.install(home());
        String h = home().toString();
        String id = "019982b8-3422-79e0-8b3b-05abaf4f3c3e";
        mnemo("--home", h, "threads", "--sync");

        assertThat(mnemo("--home", h, "threads", "disable", id).out()).contains("is now disabled");
        assertThat(mnemo("--home", h, "threads", "enable", id).out()).contains("is now enabled");
        assertThat(mnemo("--home", h, "threads", "pollute", id).out()).contains("marked polluted");
        assertThat(mnemo("--home", h, "status").out()).contains("enabled 4", "polluted 1");
        assertThat(mnemo("--home", h, "threads", "forget", "01997e76-d124-7592-9cac-2ec05abbca08").exitCode()).isZero();
        assertThat(mnemo("--home", h, "threads").out().lines()).hasSize(4);
        Result unknown = mnemo("--home", h, "threads", "disable", "no-such-thread");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("no thread with id no-such-thread");
    }

    @Test
    void instructions_withAProjectKey_carryThatProjectsSummaryAndTheGlobalOne_neverAnothers() {
        String h = home().toString();
        ProjectMemories.plant(home(), "acme/web", "acme/api");

        Result web = mnemo("--home", h, "instructions", "--project", "acme/web");
        Result global = mnemo("--home", h, "instructions");

        assertThat(web.exitCode()).as(web.err()).isZero();
        assertThat(web.out()).contains(ProjectMemories.PNPM_FACT, ProjectMemories.GLOBAL_FACT)
                .doesNotContain(ProjectMemories.NPM_FACT);
        assertThat(global.out()).contains(ProjectMemories.GLOBAL_FACT).doesNotContain(ProjectMemories.PNPM_FACT)
                .doesNotContain(ProjectMemories.NPM_FACT);
    }

    @Test
    void instructions_withAFolderInsideARepository_takeTheRepositorysProject() throws Exception {
        Path repo = Files.createDirectories(temp.resolve("src/web"));
        Git.init().setDirectory(repo.toFile()).call().close();
        Path inside = Files.createDirectories(repo.resolve("packages/ui"));
        ProjectMemories.plant(home(), ProjectKeys.forDirectory(repo), inside.toString());

        Result r = mnemo("--home", home().toString(), "instructions", "--project", inside.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains(ProjectMemories.PNPM_FACT).doesNotContain(ProjectMemories.NPM_FACT);
    }

    @Test
    void instructions_withABlankProject_isAUsageError() {
        ProjectMemories.global(home(), ProjectMemories.GLOBAL_FACT);

        Result r = mnemo("--home", home().toString(), "instructions", "--project", " ");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--project must name a folder or a project key, was blank");
    }

    @Test
    void threads_showEachThreadsProject_inTheListingAndInJson() {
        try (MemoryEngine engine = MemoryEngine.builder().home(home()).build()) {
            try (MemorySession web = engine.openSession(SessionContext.root("t-web").inProject("acme/web"))) {
                web.userMessage("How do I install the web app?");
            }
            try (MemorySession plain = engine.openSession(SessionContext.root("t-plain"))) {
                plain.userMessage("Hello there");
            }
        }

        Result text = mnemo("--home", home().toString(), "threads");
        Result json = mnemo("--home", home().toString(), "threads", "--json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out().lines().filter(l -> l.startsWith("t-web "))).singleElement().asString()
                .contains(" acme/web ");
        assertThat(text.out().lines().filter(l -> l.startsWith("t-plain "))).singleElement().asString()
                .containsPattern(" - +Hello there");
        assertThat(json.out()).contains("\"project\" : \"acme/web\"").contains("\"project\" : null");
    }

    @Test
    void threads_projectColumn_showsTheKey_theEndOfALongOne_orADash() {
        ThreadInfo.Builder thread = ThreadInfo.builder("t-1").rolloutPath(temp.resolve("t-1.jsonl"))
                .createdAt(Instant.parse(AS_OF)).updatedAt(Instant.parse(AS_OF));
        String longKey = "/home/ana/src/clients/initech/billing-service";

        assertThat(ThreadsCommand.project(thread.project("acme/web").build())).isEqualTo("acme/web");
        assertThat(ThreadsCommand.project(thread.project(longKey).build())).hasSize(ThreadsCommand.PROJECT_WIDTH)
                .isEqualTo("…initech/billing-service");
        assertThat(ThreadsCommand.project(thread.project(null).build())).isEqualTo("-");
    }

    @Test
    void rollbackAndClear_restoreAndForgetTheMemoryFolder() {
        DemoSessions.install(home());
        String h = home().toString();
        mnemo(new RuleScriptedModel(), "--home", h, "run", "--as-of", AS_OF);
        String id = mnemo("--home", h, "history").out().lines().findFirst().orElseThrow().split("\\s+")[0];

        assertThat(mnemo("--home", h, "rollback", id).out()).contains("restored to consolidation " + id);
        Result refused = mnemo("--home", h, "clear");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err()).contains("--yes");
        assertThat(mnemo("--home", h, "clear", "--yes").exitCode()).isZero();
        assertThat(home().resolve("memories/MEMORY.md")).doesNotExist();
        assertThat(mnemo("--home", h, "history").out()).contains("no consolidations yet");
        assertThat(mnemo("--home", h, "instructions").err()).contains("No memory instructions");
    }

    @Test
    void badFlag_printsUsageAndExitsTwo() {
        Result r = mnemo("status", "--bogus");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Unknown option: '--bogus'").contains("Usage: mnemo status");
    }

    @Test
    void run_withoutModel_saysWhichVariablesToSetAndExitsTwo() {
        Result r = mnemo("--home", home().toString(), "run");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("needs a model").contains("MNEMO_MODEL").contains("OPENAI_BASE_URL")
                .contains("--dry-run");
    }

    @Test
    void brokenDatabase_namesTheFileAndExitsOneWithoutStackTrace() throws IOException {
        Files.createDirectories(home());
        Files.writeString(home().resolve("mnemo.sqlite"), "this is not a database, just text ".repeat(200));

        Result r = mnemo("--home", home().toString(), "status");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains(home().resolve("mnemo.sqlite").toString()).doesNotContain("\tat ");
        Result verbose = mnemo("-v", "--home", home().toString(), "status");
        assertThat(verbose.err()).contains("\tat ");
    }

    @Test
    void brokenConfig_namesTheFileAndKeyAndExitsOne() throws IOException {
        Files.createDirectories(home());
        Files.writeString(home().resolve("config.toml"), "[memories]\nmax_rollouts_per_startupp = 3\n");

        Result r = mnemo("--home", home().toString(), "threads");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("config.toml").contains("max_rollouts_per_startupp");
    }

    @Test
    void asOf_thatIsNotAnInstant_isAUsageError() {
        Result r = mnemo("--home", home().toString(), "run", "--dry-run", "--as-of", "yesterday");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--as-of 'yesterday'");
    }

    @Test
    void runDryRun_withCodexSessions_readsThemWithoutWritingThere() throws IOException {
        Path codexHome = temp.resolve("codex");
        DemoSessions.install(codexHome);
        long before;
        try (var files = Files.walk(codexHome)) {
            before = files.count();
        }

        Result r = mnemo("--home", home().toString(), "run", "--dry-run", "--as-of", AS_OF, "--codex-sessions",
                codexHome.resolve("sessions").toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Threads (5)").contains("2 would be claimed").contains("OVER_CLAIM_LIMIT");
        try (var files = Files.walk(codexHome)) {
            assertThat(files.count()).isEqualTo(before);
        }
    }

    @Test
    void runPhases_separatelyExtractThenConsolidate_andTogetherAreAUsageError() {
        DemoSessions.install(home());
        RuleScriptedModel model = new RuleScriptedModel();
        String h = home().toString();

        Result phase1 = mnemo(model, "--home", h, "run", "--phase1-only", "--as-of", AS_OF);
        assertThat(phase1.out()).contains("Phase 1: 2 claimed, 2 succeeded").doesNotContain("Phase 2:");
        assertThat(home().resolve("memories/MEMORY.md")).doesNotExist();
        Result phase2 = mnemo(model, "--home", h, "run", "--phase2-only", "--as-of", AS_OF);
        assertThat(phase2.out()).contains("Phase 2: SUCCEEDED, 2 input(s)").doesNotContain("Phase 1:");
        assertThat(home().resolve("memories/MEMORY.md")).exists();
        Result both = mnemo(model, "--home", h, "run", "--phase1-only", "--phase2-only");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("exclude each other");
    }

    // ---- habits of the tools people know -------------------------------------------------------

    @Test
    void globalOptions_afterTheCommand_workLikeBeforeIt() {
        DemoSessions.install(home());
        String h = home().toString();
        mnemo(new RuleScriptedModel(), "run", "--as-of", AS_OF, "--home", h, "-q");

        Result status = mnemo("status", "--home", h);
        Result read = mnemo("read", "MEMORY.md", "-v", "--home", h);

        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(status.out()).contains("Home:                " + home().toAbsolutePath());
        assertThat(read.exitCode()).as(read.err()).isZero();
        assertThat(read.out()).contains("tests: pnpm test");
    }

    @Test
    void helpCommand_printsTheNamedCommandsUsage() {
        Result r = mnemo("help", "rollback");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Usage: mnemo rollback").contains("--home=DIR");
    }

    @Test
    void readOnlyCommands_onAMissingHome_sayItDoesNotExistAndDoNotCreateIt() {
        String h = home().toString();
        for (String[] command : List.of(new String[] {"status"}, new String[] {"ls"}, new String[] {"read", "MEMORY.md"},
                new String[] {"search", "pnpm"}, new String[] {"history"}, new String[] {"instructions"},
                new String[] {"threads"}, new String[] {"rollback", "20261201T000000Z-000000"})) {
            List<String> args = new ArrayList<>(List.of("--home", h));
            args.addAll(List.of(command));

            Result r = mnemo(args.toArray(String[]::new));

            assertThat(r.exitCode()).as(String.join(" ", command)).isEqualTo(1);
            assertThat(r.err()).as(String.join(" ", command)).contains("the home " + h + " does not exist")
                    .doesNotContain("run with -v");
        }
        assertThat(home()).doesNotExist();
    }

    @Test
    void home_thatIsAFile_isNotAFolder() throws IOException {
        Path file = Files.writeString(temp.resolve("file-home"), "not a folder");

        Result status = mnemo("--home", file.toString(), "status");
        Result note = mnemo("--home", file.toString(), "note", "remember this");

        for (Result r : List.of(status, note)) {
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("the home " + file + " is not a folder");
        }
        assertThat(file).hasContent("not a folder");
    }

    @Test
    void brokenToml_namesTheLine() throws IOException {
        Files.createDirectories(home());
        Files.writeString(home().resolve("config.toml"), "# settings\n[memories]\nmax_unused_days = = 3\n");

        Result r = mnemo("--home", home().toString(), "status");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains(home().resolve("config.toml") + " is not valid TOML at line 3");
    }

    @Test
    void binaryConfig_saysItIsNotUtf8Text() throws IOException {
        Files.createDirectories(home());
        Files.write(home().resolve("config.toml"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, (byte) 0xff, 1});

        Result r = mnemo("--home", home().toString(), "status");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains(home().resolve("config.toml") + " is not UTF-8 text");
    }

    @Test
    void history_namesTheModelGivenWithTheModelFlag() {
        DemoSessions.install(home());
        String h = home().toString();

        mnemo(new RuleScriptedModel(), "--home", h, "--model", "gpt-test-mini", "run", "--as-of", AS_OF);

        assertThat(mnemo("--home", h, "history").out()).contains("model gpt-test-mini").doesNotContain("unknown");
    }

    @Test
    void rollback_entryGetsAnIdInTheConsolidationFormat_andAnUnknownIdIsAUsageError() {
        DemoSessions.install(home());
        String h = home().toString();
        mnemo(new RuleScriptedModel(), "--home", h, "run", "--as-of", AS_OF);
        String id = mnemo("--home", h, "history").out().lines().findFirst().orElseThrow().split("\\s+")[0];

        assertThat(mnemo("--home", h, "rollback", id).exitCode()).isZero();
        Result unknown = mnemo("--home", h, "rollback", "nope");

        List<String> ids = mnemo("--home", h, "history").out().lines().map(l -> l.split("\\s+")[0]).toList();
        assertThat(ids).hasSize(2).allMatch(i -> i.matches("\\d{8}T\\d{6}Z-[0-9a-f]{6}"), "in the consolidation format");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("no consolidation has id 'nope'").contains("mnemo history");
    }

    @Test
    void secondRun_withinTheCooldown_saysWhenTheCooldownEnds() {
        DemoSessions.install(home());
        String h = home().toString();
        mnemo(new RuleScriptedModel(), "--home", h, "run", "--as-of", AS_OF);

        Result again = mnemo(new RuleScriptedModel(), "--home", h, "run", "--phase2-only", "--as-of", AS_OF);

        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out()).contains("Phase 2: SKIPPED_COOLDOWN").contains("the cooldown ends at 2025-09-26T11:00:00Z");
    }

    @Test
    void asOf_decidesEligibilityWhileHistoryAndElapsedKeepTheRealTime() {
        DemoSessions.install(home());
        String h = home().toString();
        Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        Result run = mnemo(new RuleScriptedModel(), "--home", h, "run", "--as-of", AS_OF);

        assertThat(run.out()).contains("pipeline clock: " + AS_OF).contains("Phase 2: SUCCEEDED, 2 input(s)");
        String entry = mnemo("--home", h, "history", "--json").out();
        Instant at = Instant.parse(entry.replaceAll("(?s).*\"at\" : \"([^\"]+)\".*", "$1"));
        assertThat(at).isBetween(before, Instant.now());
        Result status = mnemo("--home", h, "status");
        assertThat(status.out()).contains("Last consolidation:  " + AS_OF + " (pipeline clock")
                .containsPattern("Last history entry:  " + at.toString().substring(0, 4).replace("-", "") + "\\d{4}T");
    }

    @Test // issue 36: a forget is shown as what it is, not as "never" and a failed consolidation
    void status_afterAForget_keepsTheLastConsolidation_andShowsThePendingForget() {
        DemoSessions.install(home());
        String h = home().toString();
        mnemo(new RuleScriptedModel(), "--home", h, "run", "--as-of", AS_OF);
        try (dev.mnemo.store.sqlite.SqliteMemoryStore store =
                dev.mnemo.store.sqlite.SqliteMemoryStore.open(home().resolve("mnemo.sqlite"))) {
            Instant later = Instant.parse(AS_OF).plus(java.time.Duration.ofHours(1));
            // A forget that re-opened the lock for re-consolidation, and one still waiting for it.
            dev.mnemo.spi.JobClaim claim = store.tryClaimPhase2JobNow("another-process", java.time.Duration.ofHours(1),
                    later);
            store.markPhase2Failed(claim.token(), "forget_pending: re-consolidating after forgetting [t-1]",
                    java.time.Duration.ZERO, later);
            store.addPendingForget("t-2", later);
        }

        Result status = mnemo("--home", h, "status");

        assertThat(status.out()).contains("Last consolidation:  " + AS_OF + " (pipeline clock")
                .contains("Forget pending:      t-2")
                .contains("Re-consolidation:    due now, after a forget")
                .contains("Last failure:        none");
    }

    @Test
    void status_explainsStoredMemoriesThatAreNoLongerSelected() {
        DemoSessions.install(home());
        String h = home().toString();
        mnemo(new RuleScriptedModel(), "--home", h, "run", "--as-of", AS_OF);

        Result status = mnemo("--home", h, "status");

        assertThat(status.out()).contains("2 stored memories are not selected for consolidation: unused for more"
                + " than max_unused_days (30 days)");
        assertThat(mnemo("--home", h, "status", "--json").out()).contains("\"unused_memories\" : 2");
    }

    @Test
    void apiFlag_withAnUnknownValue_namesTheFlagAndExitsTwo() {
        Result r = mnemo("--home", home().toString(), "--api", "foo", "run");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--api must be one of chat, responses, was 'foo'");
    }

    @Test
    void ls_onAnEmptyOrNotYetCreatedMemoryFolder_saysItIsEmpty() throws IOException {
        Files.createDirectories(home());
        Result notCreated = mnemo("--home", home().toString(), "ls");
        Files.createDirectories(home().resolve("memories"));
        Result empty = mnemo("--home", home().toString(), "ls");

        for (Result r : List.of(notCreated, empty)) {
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.out()).contains("the memory folder is empty");
        }
    }

    @Test
    void mistypedCommand_suggestsOnlyCloseNames() {
        Result close = mnemo("stauts");
        Result far = mnemo("frobnicate");
        Result option = mnemo("status", "--hom", "x");

        assertThat(close.exitCode()).isEqualTo(2);
        assertThat(close.err()).contains("Did you mean: status?");
        assertThat(far.exitCode()).isEqualTo(2);
        assertThat(far.err()).doesNotContain("Did you mean").contains("Usage: mnemo");
        assertThat(option.err()).contains("Did you mean: --home?");
    }

    @Test
    void suggestions_matchTyposAndUniquePrefixesButNotUnrelatedWords() {
        List<String> commands = List.of("status", "run", "history", "instructions", "threads", "search");

        assertThat(Suggestions.close("histroy", commands)).containsExactly("history");
        assertThat(Suggestions.close("instr", commands)).containsExactly("instructions");
        assertThat(Suggestions.close("foo", commands)).isEmpty();
        assertThat(Suggestions.close("ru", commands)).isEmpty();
    }
}
