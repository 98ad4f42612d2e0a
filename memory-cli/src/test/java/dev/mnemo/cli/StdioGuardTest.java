package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StdioGuardTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REQUEST = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}";
    private static final String NOTIFICATION = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();

    @Test
    void linesThatAreNotJsonRpc_areAnsweredHereAndNeverReachTheSdk() throws Exception {
        StdioGuard guard = guard("not json\n\n{\"id\":9,\"x\":1}\n" + NOTIFICATION + "\n[1]\n");

        String passedOn = new String(guard.input().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(passedOn).isEqualTo(NOTIFICATION + "\n");
        String[] answers = stdout.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(answers).hasSize(3);
        assertThat(code(answers[0])).isEqualTo(-32700);
        assertThat(JSON.readTree(answers[0]).get("id").isNull()).isTrue();
        assertThat(code(answers[1])).isEqualTo(-32600);
        assertThat(JSON.readTree(answers[1]).get("id").asInt()).isEqualTo(9);
        assertThat(code(answers[2])).isEqualTo(-32600);
    }

    @Test
    void endOfInput_comesOnceTheRequestsReadAreAnswered() throws Exception {
        StdioGuard guard = guard(REQUEST + "\n");
        InputStream in = guard.input();

        assertThat(readLine(in)).isEqualTo(REQUEST);
        OutputStream out = guard.output();
        synchronized (out) {
            out.write("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        assertThat(in.read()).isEqualTo(-1);
        guard.awaitEnd();
    }

    @Test
    void whatTheServerAsksTheClient_isNoAnswer_soTheEndOfInputStillWaitsForTheAnswersOwed() {
        StdioGuard guard = guard("");

        assertThat(guard.isAnswer(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"roots/list\",\"id\":\"s-1\"}"))).isFalse();
        assertThat(guard.isAnswer(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}")))
                .isFalse();
        assertThat(guard.isAnswer(bytes("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"method\":\"x\"}}"))).isTrue();
        assertThat(guard.isAnswer(bytes("{\"jsonrpc\":\"2.0\",\"id\":\"method\",\"error\":{\"code\":-1}}"))).isTrue();
        assertThat(guard.isAnswer(bytes("{\"jsonrpc\":\"2.0\",\"id\":4,\"resu"))).isTrue();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private StdioGuard guard(String input) {
        return new StdioGuard(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), stdout,
                new JacksonMcpJsonMapper(JSON), JSON);
    }

    private static int code(String answer) throws IOException {
        JsonNode node = JSON.readTree(answer);
        assertThat(node.path("jsonrpc").asText()).isEqualTo("2.0");
        return node.path("error").path("code").asInt();
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }
}
