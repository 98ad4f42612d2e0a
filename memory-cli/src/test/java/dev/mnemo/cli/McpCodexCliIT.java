package dev.mnemo.cli;

import static dev.mnemo.testkit.ProjectMemories.NPM_FACT;
import static dev.mnemo.testkit.ProjectMemories.PNPM_FACT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.ProjectKeys;
import dev.mnemo.cli.ScriptedModelServer.Reply;
import dev.mnemo.cli.ScriptedModelServer.Request;
import dev.mnemo.testkit.ProjectMemories;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Codex CLI ({@link CodexCli}) with {@code mnemo mcp} registered by the
 * {@code [mcp_servers.mnemo]} table of docs/mcp.md as written (only the paths replaced, and
 * arguments added after {@code mcp} where a test needs them), against an in-process Responses API
 * server that scripts the model. Skipped, saying why, when the build could not install Codex (no npm).
 */
@Timeout(400)
class McpCodexCliIT {

    private static final String SUMMARY_MARKER = "SUMMARY-MARKER-7f3a";
    private static final String HANDBOOK_MARKER = "HANDBOOK-MARKER-91c2";
    private static final String REFUSAL = "must stay within the memories root";
    private static final String ID_PREFIX = "call_";

    @TempDir
    Path dir;

    @Test
    void firstTurn_seesTheToolsAndTheSummary_searchesMemory_andGoesOnAfterAHostilePathIsRefused() throws Exception {
        Path codex = CodexCli.binary();
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        Files.writeString(home.resolve("memories/memory_summary.md"), "# Summary\n- " + SUMMARY_MARKER
                + ": builds use gradle 8\n");
        Files.writeString(home.resolve("memories/MEMORY.md"), "# Handbook\n- " + HANDBOOK_MARKER
                + ": run ./gradlew check before pushing\n");

        try (ScriptedModelServer model = ScriptedModelServer.start(McpCodexCliIT::searchThenHostileRead)) {
            Path codexHome = CodexCli.configure(dir.resolve("codex-home"), model, home);
            Process process = CodexCli.exec(codex, codexHome, dir, Files.createDirectories(dir.resolve("work")),
                    "What must I run before pushing? Check memory.")
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectError(dir.resolve("codex-stderr.txt").toFile())
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(180, TimeUnit.SECONDS)).isTrue();
            String err = Files.readString(dir.resolve("codex-stderr.txt"));
            List<Request> requests = model.requests().stream().filter(CodexCli::isResponses).toList();

            assertThat(process.exitValue()).as("codex exec (stderr: %s)", err).isZero();
            assertThat(requests).as("requests to the model; codex stdout: %s", out).hasSizeGreaterThanOrEqualTo(3);
            JsonNode first = requests.get(0).body();
            assertThat(first.toString()).contains("memories_search");
            assertThat(descriptionsContaining(first, SUMMARY_MARKER)).as("a tool or namespace description holding"
                    + " the summary").isNotEmpty().allMatch(d -> d.toString().contains("memories_search")
                            || d.toString().contains("mcp__mnemo"));
            assertThat(CodexCli.output(requests, "call_search")).contains(HANDBOOK_MARKER);
            assertThat(CodexCli.output(requests, "call_hostile")).contains(REFUSAL);
            assertThat(out).contains("Memory says to run the check first.");
        }
    }

    @Test
    void eightParallelCallsInOneResponse_allAnswersReachTheModel_andEverySessionEnds_in20Sessions() throws Exception {
        Path codex = CodexCli.binary();
        Path home = ParallelToolCalls.plantHome(dir.resolve("home"));
        try (ScriptedModelServer model = ScriptedModelServer.start(McpCodexCliIT::parallelBatch)) {
            ParallelToolCalls.assertEveryAnswerArrives(dir, model, new ParallelToolCalls.Client(ID_PREFIX,
                    CodexCli::isResponses, CodexCli::outputs), (n, sessionDir) -> CodexCli.exec(codex,
                            CodexCli.configure(sessionDir.resolve("codex-home"), model, home), sessionDir,
                            Files.createDirectories(sessionDir.resolve("work")), ParallelToolCalls.prompt(n)));
        }
    }

    @Test
    void aSessionInProjectA_neverReceivesProjectBsLines_unlessACallAsksForAllProjects() throws Exception {
        Path codex = CodexCli.binary();
        Path repoA = Files.createDirectories(dir.resolve("src/web"));
        Path repoB = Files.createDirectories(dir.resolve("src/api"));
        Git.init().setDirectory(repoA.toFile()).call().close();
        Git.init().setDirectory(repoB.toFile()).call().close();
        String projectB = ProjectKeys.forDirectory(repoB);
        Path home = dir.resolve("home");
        ProjectMemories.plant(home, ProjectKeys.forDirectory(repoA), projectB);
        String folderB = ProjectKeys.FOLDER + "/" + ProjectKeys.slug(projectB) + "/";

        try (ScriptedModelServer model = ScriptedModelServer.start(request -> projectProbe(request, folderB))) {
            Path codexHome = CodexCli.configure(dir.resolve("codex-home"), model, home, projectFromCwdArgs(repoA));
            Process process = CodexCli.exec(codex, codexHome, dir, repoA, "How do I install dependencies here?")
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(dir.resolve("codex-stdout.txt").toFile())
                    .redirectError(dir.resolve("codex-stderr.txt").toFile())
                    .start();
            assertThat(process.waitFor(ParallelToolCalls.SESSION_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("codex exec ended").isTrue();
            List<Request> requests = model.requests().stream().filter(CodexCli::isResponses).toList();
            String err = Files.readString(dir.resolve("codex-stderr.txt"));

            assertThat(process.exitValue()).as("codex exec (stderr: %s)", err).isZero();
            SoftAssertions softly = new SoftAssertions();
            softly.assertThat(CodexCli.output(requests, "call_own")).as("the project's own memory").contains(PNPM_FACT);
            for (String call : List.of("call_own", "call_other_word", "call_read_other", "call_read_other_summary")) {
                softly.assertThat(CodexCli.output(requests, call)).as("the output of %s", call).isNotNull()
                        .doesNotContain(NPM_FACT);
            }
            softly.assertThat(CodexCli.output(requests, "call_all")).as("a search that asks for every project")
                    .contains(NPM_FACT);
            softly.assertAll();
        }
    }

    /**
     * The server's arguments that put it in the project of its working directory, which Codex
     * passes on: {@code --project-from-cwd}, or {@code --project DIR} on a build without that option.
     */
    private static String[] projectFromCwdArgs(Path repo) {
        boolean fromCwd = MnemoCli.commandLine(new MnemoCli()).getSubcommands().get("mcp").getCommandSpec()
                .findOption("--project-from-cwd") != null;
        if (!fromCwd) {
            System.err.println("McpCodexCliIT: mnemo mcp has no --project-from-cwd here; naming the project with"
                    + " --project " + repo);
        }
        return fromCwd ? new String[] {"--project-from-cwd"} : new String[] {"--project", repo.toString()};
    }

    // ---- the scripted models -------------------------------------------------------------------

    /** Searches memory, then reads a path outside the memory folder, then answers. */
    private static Reply searchThenHostileRead(Request request) {
        if (!CodexCli.isResponses(request)) {
            return Reply.notFound();
        }
        if (CodexCli.outputs(request).containsKey("call_hostile")) {
            return CodexCli.stream(CodexCli.message("Memory says to run the check first."));
        }
        if (CodexCli.outputs(request).containsKey("call_search")) {
            return CodexCli.stream(CodexCli.functionCall(0, "call_hostile", "memories_read",
                    "{\"path\":\"../config.toml\"}"));
        }
        return CodexCli.stream(CodexCli.functionCall(0, "call_search", "memories_search",
                "{\"queries\":[\"" + HANDBOOK_MARKER + "\"]}"));
    }

    /** In a tagged session: the batch of parallel calls, then, once answers came back, the last words. */
    private static Reply parallelBatch(Request request) {
        OptionalInt session = ParallelToolCalls.sessionOf(request);
        if (!CodexCli.isResponses(request)) {
            return Reply.notFound();
        }
        if (session.isEmpty()) {
            return CodexCli.stream(CodexCli.message("Nothing to do."));
        }
        int n = session.getAsInt();
        if (ParallelToolCalls.carriesAnswers(CodexCli.outputs(request), ID_PREFIX, n)) {
            return CodexCli.stream(CodexCli.message(ParallelToolCalls.lastWords(n)));
        }
        List<String> items = new ArrayList<>();
        for (ParallelToolCalls.Call call : ParallelToolCalls.calls()) {
            items.addAll(CodexCli.functionCall(call.index(), ParallelToolCalls.callId(ID_PREFIX, n, call.index()),
                    call.tool(), call.arguments().toString()));
        }
        return CodexCli.stream(items);
    }

    /**
     * Every way a call could reach the other project's lines, in one response: a search for words both
     * projects hold, a search for the other's word, reads of the other's files; and a search that
     * asks for every project, which may.
     */
    private static Reply projectProbe(Request request, String folderB) {
        if (!CodexCli.isResponses(request)) {
            return Reply.notFound();
        }
        if (CodexCli.outputs(request).containsKey("call_own")) {
            return CodexCli.stream(CodexCli.message("This project installs dependencies with pnpm."));
        }
        List<String> items = new ArrayList<>();
        items.addAll(CodexCli.functionCall(0, "call_own", "memories_search", "{\"queries\":[\"installs dependencies\"]}"));
        items.addAll(CodexCli.functionCall(1, "call_other_word", "memories_search", "{\"queries\":[\"with npm\"]}"));
        items.addAll(CodexCli.functionCall(2, "call_read_other", "memories_read",
                "{\"path\":\"" + folderB + "MEMORY.md\"}"));
        items.addAll(CodexCli.functionCall(3, "call_read_other_summary", "memories_read",
                "{\"path\":\"" + folderB + "memory_summary.md\"}"));
        items.addAll(CodexCli.functionCall(4, "call_all", "memories_search",
                "{\"queries\":[\"installs dependencies\"],\"scope\":\"all\"}"));
        return CodexCli.stream(items);
    }

    /** Every object under {@code node} whose {@code description} holds {@code text}. */
    private static List<JsonNode> descriptionsContaining(JsonNode node, String text) {
        List<JsonNode> found = new ArrayList<>();
        if (node.isObject() && node.path("description").asText("").contains(text)) {
            found.add(node);
        }
        node.forEach(child -> found.addAll(descriptionsContaining(child, text)));
        return found;
    }
}
