package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mnemo mcp} fed raw bytes, as no well-behaved client would: lines that are not JSON or not
 * JSON-RPC, unknown methods, bad parameters, and the end of input. Each test reads the child's
 * standard output line by line; the class timeout bounds every blocking read.
 */
@Timeout(120)
class McpStdioIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    @TempDir
    Path dir;

    private Process process;
    private BufferedReader stdout;
    private Path stderr;

    @AfterEach
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void malformedJsonLine_answersParseErrorAndKeepsServing() throws Exception {
        startInitialized();

        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":");
        sendBytes(new byte[] {(byte) 0xff, (byte) 0xfe, 'x', '\n'});
        JsonNode first = nextMessage();
        JsonNode second = nextMessage();
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");

        for (JsonNode error : List.of(first, second)) {
            assertThat(error.path("id").isNull()).isTrue();
            assertThat(error.path("error").path("code").asInt()).isEqualTo(-32700);
        }
        JsonNode tools = nextMessage();
        assertThat(tools.path("id").asInt()).isEqualTo(3);
        assertThat(tools.path("result").path("tools")).hasSize(3);
    }

    @Test
    void jsonThatIsNotJsonRpc_answersInvalidRequestWithItsId() throws Exception {
        startInitialized();

        send("{\"id\":7,\"hello\":\"world\"}");
        JsonNode withId = nextMessage();
        send("[1,2,3]");
        JsonNode batch = nextMessage();

        assertThat(withId.path("id").asInt()).isEqualTo(7);
        assertThat(withId.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(batch.path("id").isNull()).isTrue();
        assertThat(batch.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(call(8, "tools/list", "{}").has("result")).isTrue();
    }

    @Test
    void unknownMethod_answersMethodNotFoundAndKeepsServing() throws Exception {
        startInitialized();

        JsonNode unknown = call(2, "memories/forget_everything", "{}");

        assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(call(3, "resources/list", "{}").path("result").path("resources")).hasSize(2);
    }

    @Test
    void toolCallWithArgumentsOfTheWrongShape_answersAnErrorAndKeepsServing() throws Exception {
        startInitialized();

        JsonNode notAnObject = call(2, "tools/call", "{\"name\":\"memories_list\",\"arguments\":\"everything\"}");
        JsonNode wrongType = call(3, "tools/call",
                "{\"name\":\"memories_search\",\"arguments\":{\"queries\":\"gradle\"}}");

        assertThat(notAnObject.has("error")).isTrue();
        assertThat(wrongType.path("result").path("isError").asBoolean()).isTrue();
        assertThat(wrongType.path("result").path("content").get(0).path("text").asText()).contains("queries");
        JsonNode fine = call(4, "tools/call", "{\"name\":\"memories_search\",\"arguments\":{\"queries\":[\"gradle\"]}}");
        assertThat(fine.path("result").path("isError").asBoolean()).isFalse();
    }

    @Test
    void endOfInput_answersEveryRequestReadThenExitsZero() throws Exception {
        start();
        send(INITIALIZE);
        send(INITIALIZED);
        for (int id = 2; id <= 6; id++) {
            send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"memories_search\",\"arguments\":{\"queries\":[\"gradle\"]}}}");
        }
        send("not json at all");
        process.getOutputStream().close();

        List<JsonNode> answers = new ArrayList<>();
        String line;
        while ((line = stdout.readLine()) != null) {
            answers.add(JSON.readTree(line));
        }

        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(answers).hasSize(7);
        assertThat(answers).filteredOn(a -> a.has("result")).extracting(a -> a.path("id").asInt())
                .containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6);
    }

    @Test
    void standardOutput_carriesOnlyProtocolEvenWithDebugLogging() throws Exception {
        start("-v");
        send(INITIALIZE);
        send(INITIALIZED);
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"memories_read\","
                + "\"arguments\":{\"path\":\"MEMORY.md\"}}}");
        process.getOutputStream().close();

        List<String> lines = new ArrayList<>();
        String line;
        while ((line = stdout.readLine()) != null) {
            lines.add(line);
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(lines).hasSize(2);
        for (String out : lines) {
            assertThat(JSON.readTree(out).path("jsonrpc").asText()).isEqualTo("2.0");
        }
        assertThat(Files.readString(stderr)).contains("DEBUG");
    }

    @Test
    void launcher_sendsTheJvmsOwnWarningsToStandardError_soStandardOutputIsOnlyProtocol() throws Exception {
        // The launcher and jar copied elsewhere, handed the build's archive, made for the jar where it
        // was built: the JVM warns, through its unified logging, that it cannot use it.
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        for (String file : List.of("mnemo", "mnemo.jar")) {
            Files.copy(MnemoJar.jar().resolveSibling(file), elsewhere.resolve(file));
        }
        elsewhere.resolve("mnemo").toFile().setExecutable(true);
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        ProcessBuilder builder = new ProcessBuilder(elsewhere.resolve("mnemo").toString(), "--home",
                home.toString(), "mcp").redirectError(dir.resolve("stderr.txt").toFile());
        builder.environment().put("JAVA_HOME", MnemoJar.javaHome());
        builder.environment().put("MNEMO_CDS", "off");
        builder.environment().put("MNEMO_JAVA_OPTS",
                "-XX:SharedArchiveFile=" + MnemoJar.jar().resolveSibling("mnemo.jsa"));
        stderr = dir.resolve("stderr.txt");
        process = builder.start();
        stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        send(INITIALIZE);
        process.getOutputStream().close();

        List<String> lines = new ArrayList<>();
        String line;
        while ((line = stdout.readLine()) != null) {
            lines.add(line);
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(lines).hasSize(1);
        assertThat(JSON.readTree(lines.get(0)).path("result").path("serverInfo").path("name").asText())
                .isEqualTo("mnemo");
        assertThat(Files.readString(stderr)).contains("[warning][cds");
    }

    private void start(String... rootOptions) throws IOException {
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        List<String> command = new ArrayList<>(MnemoJar.command(home));
        command.addAll(List.of(rootOptions));
        command.add("mcp");
        stderr = dir.resolve("stderr.txt");
        process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    private void startInitialized() throws IOException {
        start();
        send(INITIALIZE);
        assertThat(nextMessage().path("result").path("serverInfo").path("name").asText()).isEqualTo("mnemo");
        send(INITIALIZED);
    }

    private JsonNode call(int id, String method, String params) throws IOException {
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
        JsonNode answer = nextMessage();
        assertThat(answer.path("id").asInt()).isEqualTo(id);
        return answer;
    }

    private void send(String line) throws IOException {
        sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private void sendBytes(byte[] bytes) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write(bytes);
        in.flush();
    }

    private JsonNode nextMessage() throws IOException {
        String line = stdout.readLine();
        assertThat(line).as("a message from the server (stderr: %s)", stderr).isNotNull();
        return JSON.readTree(line);
    }
}
