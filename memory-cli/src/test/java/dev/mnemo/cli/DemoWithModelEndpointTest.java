package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code mnemo demo} with a model endpoint, end to end over HTTP: the CLI's real model factory
 * reads the environment, the real OpenAI client speaks Chat Completions to an in-process server
 * (scripted answers, not a real model), and afterwards {@code mnemo instructions} prints the summary.
 */
class DemoWithModelEndpointTest {

    private static final String SUMMARY = "Spectora monorepo: run checks with pnpm; dashboards live in apps/web.";

    @TempDir
    Path temp;

    private final ScriptedChatServer server = new ScriptedChatServer(SUMMARY);

    @AfterEach
    void stopServer() {
        server.close();
    }

    private String[] run(Map<String, String> env, String... args) {
        MnemoCli cli = new MnemoCli(env, temp.resolve("user").toString(), MnemoCli::modelFromEnvironment);
        CommandLine commandLine = MnemoCli.commandLine(cli);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void demo_withModelEndpoint_extractsAllSamplesAndLeavesASummaryThatInstructionsPrints() throws IOException {
        String[] demo = run(server.environment(), "demo");

        assertThat(demo[0]).as(demo[2]).isEqualTo("0");
        assertThat(demo[1]).contains("Phase 1: 5 claimed, 5 succeeded").contains("Phase 2: SUCCEEDED, 5 input(s)");
        assertThat(server.extractions.get()).isEqualTo(5);
        assertThat(server.agentTurns.get()).isEqualTo(2);
        Path home = temp.resolve("user/.mnemo-demo");
        assertThat(Files.readString(home.resolve("memories/memory_summary.md"), StandardCharsets.UTF_8))
                .startsWith("v1\n");
        String[] instructions = run(Map.of(), "--home", home.toString(), "instructions");
        assertThat(instructions[1]).contains(SUMMARY);
        assertThat(run(Map.of(), "--home", home.toString(), "history")[1]).contains("model scripted-test-model");
    }
}
