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
}
