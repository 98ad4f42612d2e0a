package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelException.Reason;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.OutputSchema;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every adapter of {@link LanguageModel} to an OpenAI-compatible endpoint must do, checked on
 * the wire against an in-process {@link OpenAiWireServer} the suite scripts: a text reply comes
 * back as text; offered tools are sent, tool calls come back with their ids and arguments, and
 * their results are sent back answering those ids; a strict output schema is sent as a strict
 * {@code json_schema} response format and the JSON reply comes back as the text; token usage is
 * reported; and failures become {@link ModelException}s whose {@link ModelException#reason()} and
 * {@link ModelException#retryable()} tell a caller what to do (429 → rate limited, 5xx → server,
 * time-outs and unreachable servers retryable; authentication, invalid requests and an exceeded
 * context window not).
 *
 * <p>An implementation's test extends this class and provides {@link #model(URI, Duration)}: the
 * adapter under test wired to the given base URL ({@code http://127.0.0.1:PORT/v1}) with the given
 * request time-out and without retries of its own (retrying is the caller's decision; an adapter that
 * cannot turn them off still passes, only slower). A new server is started before each test and
 * closed after it. The server serves Chat Completions and, without streaming, the Responses API;
 * {@link #server} is there for a subclass's own extra tests.
 */
public abstract class LanguageModelContract {

    /** A request time-out short enough that the time-out test ends quickly. */
    protected static final Duration REQUEST_TIMEOUT = Duration.ofMillis(750);

    private static final String SEARCH_PARAMETERS = """
            {"type":"object","properties":{"query":{"type":"string"}},"required":["query"],\
            "additionalProperties":false}""";
    private static final String STAGE1_SCHEMA = """
            {"type":"object","properties":{"raw_memory":{"type":"string"},"rollout_summary":{"type":"string"}},\
            "required":["raw_memory","rollout_summary"],"additionalProperties":false}""";

    /** The scripted endpoint of the current test. */
    protected OpenAiWireServer server;

    private volatile Function<WireRequest, WireReply> fallback = request -> null;

    /**
     * The adapter under test, talking to {@code baseUrl} with the given request time-out and no
     * retries of its own. Called once per test, after the server started.
     *
     * @param baseUrl the scripted server's API root, ending in {@code /v1}
     * @param requestTimeout how long the adapter waits for one response
     * @return the adapter under test
     */
    protected abstract LanguageModel model(URI baseUrl, Duration requestTimeout);

    @BeforeEach
    void startServer() {
        server = OpenAiWireServer.start(request -> fallback.apply(request));
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void respond_sendsInstructionsAndConversationAndReturnsTheText() {
        server.enqueue(WireReply.text("Use ./gradlew build --offline."));

        ModelResponse response = model().respond(ModelRequest.builder()
                .instructions("You are a careful build assistant.")
                .messages(List.of(ModelMessage.user("How do I build offline?")))
                .build());

        assertThat(response.text()).isEqualTo("Use ./gradlew build --offline.");
        assertThat(response.toolCalls()).isEmpty();
        assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
        WireRequest sent = onlyRequest();
        assertThat(sent.systemText()).contains("You are a careful build assistant.");
        assertThat(sent.lastUserText()).isEqualTo("How do I build offline?");
    }

    @Test
    void respond_reportsTheTokenUsageTheServerCounted() {
        server.enqueue(WireReply.text("ok"));

        ModelResponse response = model().respond(userRequest("hi"));

        assertThat(response.usage().inputTokens()).isEqualTo(10);
        assertThat(response.usage().outputTokens()).isEqualTo(5);
    }

    @Test
    void respond_toolCallsRoundTrip_offeredCalledAndAnsweredById() {
        ToolSpec search = new ToolSpec("memories_search", "Searches the memory folder.", SEARCH_PARAMETERS);
        server.enqueue(WireReply.toolCall("call_1", "memories_search", "{\"query\":\"gradle\"}"));
        LanguageModel model = model();
        ModelMessage question = ModelMessage.user("How do I build?");

        ModelResponse first = model.respond(ModelRequest.builder().messages(List.of(question)).tools(List.of(search))
                .build());

        assertThat(first.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(first.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.id()).isEqualTo("call_1");
            assertThat(call.name()).isEqualTo("memories_search");
            assertThat(call.argumentsJson().replace(" ", "")).isEqualTo("{\"query\":\"gradle\"}");
        });
        assertThat(server.requests().get(0).toolNames()).containsExactly("memories_search");

        server.enqueue(WireReply.text("Run ./gradlew build."));
        ToolCall call = first.toolCalls().get(0);
        ModelResponse second = model.respond(ModelRequest.builder()
                .messages(List.of(question, ModelMessage.assistant(first.text(), List.of(call)),
                        ModelMessage.tool(call.id(), "{\"matches\":[\"MEMORY.md:3\"]}")))
                .tools(List.of(search))
                .build());

        assertThat(second.text()).isEqualTo("Run ./gradlew build.");
        WireRequest followUp = server.requests().get(1);
        assertThat(followUp.assistantToolCallIds()).containsExactly("call_1");
        assertThat(followUp.toolResultCallIds()).containsExactly("call_1");
        assertThat(followUp.toolOutputs()).containsExactly("{\"matches\":[\"MEMORY.md:3\"]}");
    }

    @Test
    void respond_sendsAStrictOutputSchemaAndReturnsTheJsonReply() {
        String json = "{\"raw_memory\":\"- build offline\",\"rollout_summary\":\"built offline\"}";
        server.enqueue(WireReply.text(json));

        ModelResponse response = model().respond(ModelRequest.builder()
                .messages(List.of(ModelMessage.user("Extract a memory.")))
                .outputSchema(new OutputSchema("stage1_output", STAGE1_SCHEMA, true))
                .build());

        assertThat(response.text()).isEqualTo(json);
        WireRequest sent = onlyRequest();
        assertThat(sent.responseFormatType()).isEqualTo("json_schema");
        assertThat(sent.responseSchemaName()).isEqualTo("stage1_output");
        assertThat(sent.responseSchemaStrict()).isTrue();
        assertThat(sent.responseSchema()).contains("\"raw_memory\"", "\"rollout_summary\"");
    }

    /** HTTP failures, the reason each must become, and whether it is retryable. */
    static Stream<Arguments> httpFailures() {
        return Stream.of(
                Arguments.of(429, error("Rate limit reached for requests", "requests", "rate_limit_exceeded"),
                        Reason.RATE_LIMITED, true),
                Arguments.of(500, error("The server had an error", "server_error", null), Reason.SERVER, true),
                Arguments.of(503, error("The engine is currently overloaded", "server_error", null), Reason.SERVER,
                        true),
                Arguments.of(401, error("Incorrect API key provided", "invalid_request_error", "invalid_api_key"),
                        Reason.AUTHENTICATION, false),
                Arguments.of(400, error("Invalid value for 'messages'", "invalid_request_error", null),
                        Reason.INVALID_REQUEST, false),
                Arguments.of(400, error("This model's maximum context length is 8192 tokens",
                        "invalid_request_error", "context_length_exceeded"), Reason.CONTEXT_WINDOW_EXCEEDED, false));
    }

    @ParameterizedTest(name = "HTTP {0} -> {2}, retryable={3}")
    @MethodSource("httpFailures")
    void respond_mapsHttpFailuresToAReasonAndRetryability(int status, String body, Reason reason, boolean retryable) {
        fallback = request -> WireReply.failure(status, body);

        ModelException e = catchThrowableOfType(ModelException.class, () -> model().respond(userRequest("hi")));

        assertThat(e).as("HTTP %d must fail with a ModelException", status).isNotNull();
        assertThat(e.reason()).isEqualTo(reason);
        assertThat(e.retryable()).isEqualTo(retryable);
    }

    @Test
    void respond_whenTheServerDoesNotAnswerInTime_failsRetryablyAsATimeout() {
        fallback = request -> WireReply.stall();

        ModelException e = catchThrowableOfType(ModelException.class, () -> model().respond(userRequest("hi")));

        assertThat(e).as("a stalled server must end in a ModelException").isNotNull();
        assertThat(e.reason()).isEqualTo(Reason.TIMEOUT);
        assertThat(e.retryable()).isTrue();
    }

    @Test
    void respond_whenNothingListens_failsRetryablyAsANetworkError() {
        URI gone = server.baseUrl();
        server.close();
        LanguageModel model = model(gone, REQUEST_TIMEOUT);

        ModelException e = catchThrowableOfType(ModelException.class, () -> model.respond(userRequest("hi")));

        assertThat(e).as("an unreachable server must end in a ModelException").isNotNull();
        assertThat(e.reason()).isIn(Reason.NETWORK, Reason.TIMEOUT);
        assertThat(e.retryable()).isTrue();
    }

    private LanguageModel model() {
        return Objects.requireNonNull(model(server.baseUrl(), REQUEST_TIMEOUT), "model(baseUrl, timeout)");
    }

    private WireRequest onlyRequest() {
        assertThat(server.requests()).as("requests the adapter sent").hasSize(1);
        return server.requests().get(0);
    }

    private static ModelRequest userRequest(String text) {
        return ModelRequest.builder().messages(List.of(ModelMessage.user(text))).build();
    }

    private static String error(String message, String type, String code) {
        return "{\"error\":{\"message\":\"" + message + "\",\"type\":\"" + type + "\",\"param\":null,\"code\":"
                + (code == null ? "null" : "\"" + code + "\"") + "}}";
    }
}
