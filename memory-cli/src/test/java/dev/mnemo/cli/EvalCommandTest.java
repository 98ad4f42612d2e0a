package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code mnemo eval} through the CLI's real model factory and OpenAI client, against an in-process
 * Chat Completions server with scripted answers (a test double, not a model): the plumbing from
 * flags to report files.
 */
class EvalCommandTest {

    @TempDir
    Path temp;

    /** Extraction gets a memory, the agent writes both artifacts, every probe gets "I don't know". */
    private static WireReply script(WireRequest request) {
        if (request.responseFormatType().equals("json_schema")) {
            return WireReply.text("{\"raw_memory\":\"- a memory\",\"rollout_summary\":\"a summary\",\"rollout_slug\":null}");
        }
        if (request.toolNames().contains("write_file")) {
            List<String> roles = request.roles();
            if (roles.get(roles.size() - 1).equals("tool")) {
                return WireReply.text("Done.");
            }
            return new WireReply.ToolCalls(List.of(
                    new WireReply.Call("c1", "write_file", "{\"path\":\"MEMORY.md\",\"content\":\"# Memory\\n- a memory\\n\"}"),
                    new WireReply.Call("c2", "write_file", "{\"path\":\"memory_summary.md\",\"content\":\"v1\\n- a memory\\n\"}")));
        }
        return WireReply.text("I don't know.");
    }

    @Test
    void eval_withAModelEndpoint_runsTheLimitedSetAndWritesTheReport() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start(EvalCommandTest::script)) {
            MnemoCli cli = new MnemoCli(Map.of("OPENAI_API_KEY", "test", "OPENAI_BASE_URL", server.baseUrl().toString(),
                    "MNEMO_MODEL", "wire-model"), temp.resolve("user").toString(), MnemoCli::modelFromEnvironment);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine commandLine = MnemoCli.commandLine(cli);
            commandLine.setOut(new PrintWriter(out));
            commandLine.setErr(new PrintWriter(err));

            int code = commandLine.execute("eval", "--out", temp.resolve("run").toString(), "--limit", "1");

            assertThat(code).as(err.toString()).isZero();
            assertThat(out.toString()).contains("1 users with wire-model", "mnemo", "no_memory", "transcripts",
                    "report.md");
            assertThat(Files.readString(temp.resolve("run/report.md"))).contains("# Mnemo eval: wire-model");
            assertThat(server.requests()).anyMatch(r -> r.responseFormatType().equals("json_schema"));
            assertThat(temp.resolve("user/.mnemo")).doesNotExist();
        }
    }

    @Test
    void eval_ofAnotherModelIntoTheSameOut_isAUsageErrorNamingBoth_andFreshStartsOver() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start(EvalCommandTest::script)) {
            Map<String, String> env = Map.of("OPENAI_API_KEY", "test", "OPENAI_BASE_URL", server.baseUrl().toString(),
                    "MNEMO_MODEL", "wire-model");
            String run = temp.resolve("run").toString();
            assertThat(execute(env, "eval", "--out", run, "--limit", "1").code()).isZero();
            int requestsOfTheFirstRun = server.requests().size();

            Execution other = execute(env, "--model", "other-model", "eval", "--out", run, "--limit", "1");

            assertThat(other.code()).isEqualTo(2);
            assertThat(other.err()).contains("holds a run of another model", "model 'wire-model' (api=chat, base_url="
                    + server.baseUrl().toString().replaceAll("/+$", ""), "model 'other-model'", "--fresh", "new --out");
            assertThat(server.requests()).hasSize(requestsOfTheFirstRun);
            assertThat(Files.readString(temp.resolve("run/report.md"))).contains("# Mnemo eval: wire-model");

            Execution fresh = execute(env, "--model", "other-model", "eval", "--out", run, "--limit", "1", "--fresh");

            assertThat(fresh.code()).as(fresh.err()).isZero();
            assertThat(server.requests().size()).isGreaterThan(requestsOfTheFirstRun);
            assertThat(Files.readString(temp.resolve("run/report.md"))).contains("# Mnemo eval: other-model");
        }
    }

    private record Execution(int code, String out, String err) {}

    private Execution execute(Map<String, String> env, String... args) {
        MnemoCli cli = new MnemoCli(env, temp.resolve("user").toString(), MnemoCli::modelFromEnvironment);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = MnemoCli.commandLine(cli);
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new Execution(code, out.toString(), err.toString());
    }

    @Test
    void eval_withoutAModel_isAUsageErrorNamingTheVariables() {
        MnemoCli cli = new MnemoCli(Map.of(), temp.resolve("user").toString(), MnemoCli::modelFromEnvironment);
        StringWriter err = new StringWriter();
        CommandLine commandLine = MnemoCli.commandLine(cli);
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("eval", "--out", temp.resolve("run").toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("`mnemo eval` needs a model", "MNEMO_MODEL");
    }

    /** One LongMemEval entry, written here in the published format (no benchmark data ships). */
    private static final String LONGMEMEVAL_ENTRY = """
            [{"question_id": "q1", "question_type": "single-session-user", "question": "Which breed is my dog?",
              "answer": "a beagle", "question_date": "2023/05/30 (Tue) 10:00",
              "haystack_session_ids": ["s1"], "haystack_dates": ["2023/05/20 (Sat) 02:21"],
              "haystack_sessions": [[{"role": "user", "content": "My dog is a beagle.", "has_answer": true},
                                     {"role": "assistant", "content": "Nice."}]],
              "answer_session_ids": ["s1"]}]
            """;

    @Test
    void evalDataset_runsTheBenchmarkFile_withTheJudgeModelNamedOnTheSameEndpoint() throws Exception {
        Path file = Files.writeString(temp.resolve("longmemeval_s_cleaned.json"), LONGMEMEVAL_ENTRY);
        try (OpenAiWireServer server = OpenAiWireServer.start(request -> request.systemText().startsWith(
                "You grade answers") ? WireReply.text("yes") : script(request))) {
            Map<String, String> env = Map.of("OPENAI_API_KEY", "test", "OPENAI_BASE_URL", server.baseUrl().toString(),
                    "MNEMO_MODEL", "wire-model");

            Execution run = execute(env, "eval", "--dataset", "longmemeval", file.toString(), "--out",
                    temp.resolve("run").toString(), "--limit", "1", "--judge-model", "judge-model");

            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.out()).contains("longmemeval: 1 conversations, 1 questions with wire-model (judge judge-model)",
                    "mnemo", "no_memory", "full_context", "benchmark-report.md");
            List<WireRequest> judged = server.requests().stream().filter(r -> r.systemText().startsWith(
                    "You grade answers")).toList();
            assertThat(judged).isNotEmpty().allMatch(r -> r.model().equals("judge-model"));
            assertThat(server.requests()).anyMatch(r -> r.responseFormatType().equals("json_schema")
                    && r.model().equals("wire-model"));
            assertThat(Files.readString(temp.resolve("run/benchmark-report.md"))).contains(
                    "# Mnemo on LongMemEval: wire-model", "| mnemo | 100.0 % (1/1)");
        }
    }

    @Test
    void evalDataset_withAnUnknownNameOrNoFile_isAUsageError() throws Exception {
        Path file = Files.writeString(temp.resolve("data.json"), LONGMEMEVAL_ENTRY);
        Map<String, String> env = Map.of("OPENAI_API_KEY", "test", "MNEMO_MODEL", "wire-model");

        Execution unknown = execute(env, "eval", "--dataset", "squad", file.toString(), "--out", temp.toString());
        Execution noFile = execute(env, "eval", "--dataset", "locomo", "--out", temp.toString());
        Execution concurrent = execute(env, "eval", "--dataset", "longmemeval", file.toString(), "--out",
                temp.toString(), "--concurrency", "4");
        Execution missing = execute(env, "eval", "--dataset", "locomo", temp.resolve("nope.json").toString(), "--out",
                temp.toString());

        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("no benchmark 'squad'", "locomo or longmemeval");
        assertThat(noFile.code()).isEqualTo(2);
        assertThat(noFile.err()).contains("needs both --dataset");
        assertThat(concurrent.code()).isEqualTo(2);
        assertThat(concurrent.err()).contains("--concurrency do not go with --dataset");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("no file", "download it first");
    }
}
