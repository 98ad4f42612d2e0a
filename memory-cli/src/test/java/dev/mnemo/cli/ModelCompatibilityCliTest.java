package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The CLI against an OpenAI-compatible server in this process (real HTTP, the CLI's real model
 * factory and client; scripted answers, not a model): reasoning effort goes only where it works,
 * and a model that fails is not the rollouts' fault and shows in {@code status}.
 */
class ModelCompatibilityCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NOTHING_TO_KEEP =
            "{\"raw_memory\":\"\",\"rollout_summary\":\"\",\"rollout_slug\":null}";
    /** OpenAI's answer to a non-reasoning model asked for a reasoning effort. */
    private static final String UNSUPPORTED_REASONING = """
            {"error":{"message":"Unsupported parameter: 'reasoning_effort' is not supported with this model.",\
            "type":"invalid_request_error","param":"reasoning_effort","code":"unsupported_parameter"}}""";
    private static final String INVALID_KEY = """
            {"error":{"message":"Incorrect API key provided: sk-wrong. You can find your API key at \
            https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,\
            "code":"invalid_api_key"}}""";

    private record Answer(int status, String body) {}

    @TempDir
    Path temp;

    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private volatile Function<JsonNode, Answer> answers = request -> new Answer(200, chat(NOTHING_TO_KEEP));
    private final ChatCompletionsServer server = ChatCompletionsServer.start(this::answer);

    record Result(int exitCode, String out, String err) {}

    @AfterEach
    void stopServer() {
        server.close();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            requests.add(request);
            Answer answer = answers.apply(request);
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static String chat(String content) {
        return JSON.createObjectNode().set("choices", JSON.createArrayNode().add(JSON.createObjectNode()
                .put("finish_reason", "stop").set("message", JSON.createObjectNode().put("role", "assistant")
                        .put("content", content)))).toString();
    }

    private Result mnemo(String... args) {
        Map<String, String> env = Map.of("OPENAI_BASE_URL", server.baseUrl(),
                "OPENAI_API_KEY", "sk-wrong", "MNEMO_MODEL", "gpt-4.1-mini");
        CommandLine commandLine = MnemoCli.commandLine(new MnemoCli(env, temp.resolve("user").toString(),
                MnemoCli::modelFromEnvironment));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return new Result(commandLine.execute(args), out.toString(), err.toString());
    }

    private Path home() {
        return temp.resolve("home");
    }

    @Test
    void run_againstAModelThatRejectsReasoningEffort_extractsWithoutIt() {
        DemoSessions.install(home());
        answers = request -> request.has("reasoning_effort") ? new Answer(400, UNSUPPORTED_REASONING)
                : new Answer(200, chat(NOTHING_TO_KEEP));

        Result r = mnemo("--home", home().toString(), "run", "--phase1-only", "--as-of", MnemoCliTest.AS_OF);

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Phase 1: 2 claimed, 0 succeeded, 2 with nothing to keep, 0 failed");
        // Both jobs may ask with it before the first refusal arrives; never after.
        long withEffort = requests.stream().filter(request -> request.has("reasoning_effort")).count();
        assertThat(withEffort).isBetween(1L, 2L);
        assertThat(requests).hasSize((int) withEffort + 2);
    }

    @Test
    void reasoningEffortFlag_none_sendsNoReasoningParameter() {
        DemoSessions.install(home());

        Result r = mnemo("--home", home().toString(), "--reasoning-effort", "none", "run", "--phase1-only", "--as-of",
                MnemoCliTest.AS_OF);

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(requests).hasSize(2).allSatisfy(request -> assertThat(request.has("reasoning_effort")).isFalse());
    }

    @Test
    void reasoningEffortFlag_high_replacesThePhasesOwnEffort() {
        DemoSessions.install(home());

        mnemo("--home", home().toString(), "--reasoning-effort", "high", "run", "--phase1-only", "--as-of",
                MnemoCliTest.AS_OF);

        assertThat(requests).hasSize(2)
                .allSatisfy(request -> assertThat(request.get("reasoning_effort").asText()).isEqualTo("high"));
    }

    @Test
    void reasoningEffortFlag_thatIsNoEffort_isAUsageErrorNamingTheSetting() {
        Result r = mnemo("--home", home().toString(), "--reasoning-effort", "max", "run");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("MNEMO_REASONING_EFFORT must be none, low, medium or high, was 'max'");
    }

    @Test
    void run_withARejectedKey_spendsNoRetryAndStatusSaysTheModelIsFailing() throws SQLException {
        DemoSessions.install(home());
        answers = request -> new Answer(401, INVALID_KEY);

        Result run = mnemo("--home", home().toString(), "run", "--phase1-only", "--as-of", MnemoCliTest.AS_OF);

        assertThat(run.out()).contains("Phase 1: 2 claimed, 0 succeeded, 0 with nothing to keep, 2 failed");
        assertThat(retriesLeft()).containsOnly(3);
        Result status = mnemo("--home", home().toString(), "status");
        assertThat(status.out()).contains("Model failing:       AUTHENTICATION since 2025-09-26T05:00:00Z")
                .contains("Incorrect API key provided");
        Result json = mnemo("--home", home().toString(), "status", "--json");
        assertThat(json.out()).contains("\"model_failing\" : {").contains("\"reason\" : \"AUTHENTICATION\"");

        // Fixed: the next run after the short backoff extracts, and status stops saying so.
        answers = request -> new Answer(200, chat(NOTHING_TO_KEEP));
        Result again = mnemo("--home", home().toString(), "run", "--phase1-only", "--as-of", "2025-09-26T05:05:00Z");
        assertThat(again.out()).contains("Phase 1: 2 claimed, 0 succeeded, 2 with nothing to keep, 0 failed");
        assertThat(mnemo("--home", home().toString(), "status").out()).doesNotContain("Model failing");
    }

    private List<Integer> retriesLeft() throws SQLException {
        List<Integer> left = new java.util.ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + home().resolve("mnemo.sqlite"));
                ResultSet rs = c.createStatement().executeQuery(
                        "SELECT retry_remaining FROM jobs WHERE kind = 'memory_stage1'")) {
            while (rs.next()) {
                left.add(rs.getInt(1));
            }
        }
        return left;
    }
}
