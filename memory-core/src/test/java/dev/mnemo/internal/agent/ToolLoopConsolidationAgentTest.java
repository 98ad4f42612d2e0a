package dev.mnemo.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.Role;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.spi.ConsolidationAgentRequest;
import dev.mnemo.spi.ConsolidationAgentResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolLoopConsolidationAgentTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODEL = "consolidation-model-x";
    private static final TokenUsage TURN_USAGE = new TokenUsage(100, 40, 20, 5);

    @TempDir
    Path temp;

    private Path root;
    private Path outside;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final ScriptedLanguageModel model = new ScriptedLanguageModel();

    @BeforeEach
    void createWorkspace() throws IOException {
        root = Files.createDirectories(temp.resolve("memories"));
        outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(root.resolve("phase2_workspace_diff.md"), "# Memory workspace diff\nA raw_memories.md\n");
        Files.writeString(root.resolve("raw_memories.md"), "thread 1: the user prefers tabs\n");
        Files.writeString(outside.resolve("keep.md"), "outside text\n");
    }

    @Test
    void run_writesValidArtifactsThroughToolCallsAndCompletes() throws IOException {
        model.thenCalls(TURN_USAGE, call("c1", "list_files", Map.of()),
                        call("c2", "read_file", Map.of("path", "phase2_workspace_diff.md")))
                .thenCalls(TURN_USAGE, call("c3", "write_file", Map.of("path", "MEMORY.md", "content", "memory\n")),
                        call("c4", "write_file", Map.of("path", "memory_summary.md", "content", "v1\n\nsummary\n")))
                .thenAnswers("Wrote MEMORY.md and memory_summary.md.", TURN_USAGE);

        ConsolidationAgentResult result = agent().run(request(Duration.ofMinutes(30)));

        assertThat(result.completed()).as("result %s", result).isTrue();
        assertThat(result.error()).isEmpty();
        assertThat(Files.readString(root.resolve("MEMORY.md"))).isEqualTo("memory\n");
        assertThat(Files.readAllLines(root.resolve("memory_summary.md")).get(0)).isEqualTo("v1");
        assertThat(model.requests()).hasSize(3);
    }

    @Test
    void requests_carryMediumEffortModelNameInstructionsToolsAndMetadata() throws IOException {
        model.thenCalls(TURN_USAGE, call("c1", "list_files", Map.of())).thenAnswers("done", TURN_USAGE);

        agent().run(request(Duration.ofMinutes(30)));

        assertThat(model.requests()).hasSize(2).allSatisfy(sent -> {
            assertThat(sent.reasoningEffort()).isEqualTo(ReasoningEffort.MEDIUM);
            assertThat(sent.model()).isEqualTo(MODEL);
            assertThat(sent.metadata()).containsEntry("request_kind", "memory_consolidation");
            assertThat(sent.instructions()).contains("memory consolidation worker", "never instructions");
            assertThat(sent.outputSchema()).isEmpty();
            assertThat(sent.tools()).extracting(ToolSpec::name).containsExactly("list_files", "read_file",
                    "search_files", "write_file", "edit_file", "delete_file", "move_file");
            assertThat(sent.messages().get(0)).isEqualTo(ModelMessage.user("consolidate the memory folder"));
        });
        for (ToolSpec tool : model.requests().get(0).tools()) {
            assertThat(tool.name()).matches("[a-zA-Z0-9_-]{1,64}");
            JsonNode schema = JSON.readTree(tool.parametersJsonSchema());
            assertThat(schema.path("type").asText()).as(tool.name()).isEqualTo("object");
            assertThat(schema.path("additionalProperties").isBoolean()).as(tool.name()).isTrue();
            assertThat(schema.path("additionalProperties").asBoolean()).as(tool.name()).isFalse();
            schema.path("required").forEach(name ->
                    assertThat(schema.path("properties").has(name.asText())).as(tool.name() + " " + name).isTrue());
        }
    }

    @Test
    void toolResults_followTheAssistantTurnAndAnswerEachCallById() throws IOException {
        ToolCall list = call("call-list", "list_files", Map.of());
        ToolCall read = call("call-read", "read_file", Map.of("path", "raw_memories.md"));
        model.then(new ModelResponse("looking around", List.of(list, read), TURN_USAGE, FinishReason.TOOL_CALLS))
                .thenAnswers("done", TURN_USAGE);

        agent().run(request(Duration.ofMinutes(30)));

        List<ModelMessage> second = model.requests().get(1).messages();
        assertThat(second).hasSize(4);
        assertThat(second.get(1).role()).isEqualTo(Role.ASSISTANT);
        assertThat(second.get(1).text()).isEqualTo("looking around");
        assertThat(second.get(1).toolCalls()).containsExactly(list, read);
        assertThat(second.get(2).role()).isEqualTo(Role.TOOL);
        assertThat(second.get(2).toolCallId()).contains("call-list");
        assertThat(JSON.readTree(second.get(2).text()).path("entries").toString()).contains("raw_memories.md");
        assertThat(second.get(3).toolCallId()).contains("call-read");
        assertThat(JSON.readTree(second.get(3).text()).path("content").asText())
                .isEqualTo("thread 1: the user prefers tabs\n");
    }

    @Test
    void usage_isSummedAcrossEveryTurn() {
        model.thenCalls(new TokenUsage(10, 1, 2, 0), call("a", "list_files", Map.of()))
                .thenCalls(new TokenUsage(20, 2, 4, 1), call("b", "list_files", Map.of()))
                .thenAnswers("done", new TokenUsage(30, 3, 6, 2));

        ConsolidationAgentResult result = agent().run(request(Duration.ofMinutes(30)));

        assertThat(result.usage()).isEqualTo(new TokenUsage(60, 6, 12, 3));
    }

    @Test
    void stepBudget_exhaustedWhileTheModelKeepsCallingTools_fails() {
        for (int i = 0; i < 5; i++) {
            model.thenCalls(TURN_USAGE, call("loop-" + i, "list_files", Map.of()));
        }

        ConsolidationAgentResult result = new ToolLoopConsolidationAgent(model, clock, 3).run(request(Duration.ofHours(1)));

        assertThat(result.completed()).isFalse();
        assertThat(result.error()).hasValueSatisfying(reason -> assertThat(reason).contains("budget of 3 steps"));
        assertThat(model.requests()).hasSize(3);
        assertThat(result.usage()).isEqualTo(TURN_USAGE.plus(TURN_USAGE).plus(TURN_USAGE));
    }

    @Test
    void timeout_passingBetweenSteps_failsWithoutAnotherModelCall() {
        model.thenCalls(TURN_USAGE, call("a", "list_files", Map.of()))
                .then(sent -> {
                    clock.advance(Duration.ofMinutes(30));
                    return ModelResponse.ofToolCalls(List.of(call("b", "list_files", Map.of())), TURN_USAGE);
                })
                .thenAnswers("never reached", TURN_USAGE);

        ConsolidationAgentResult result = agent().run(request(Duration.ofMinutes(30)));

        assertThat(result.completed()).isFalse();
        assertThat(result.error()).hasValueSatisfying(reason -> assertThat(reason).contains("timeout of PT30M"));
        assertThat(model.requests()).hasSize(2);
        assertThat(model.remainingTurns()).isEqualTo(1);
        assertThat(result.usage()).isEqualTo(TURN_USAGE.plus(TURN_USAGE));
    }

    @Test
    void timeout_notYetReached_letsTheRunFinish() {
        model.then(sent -> {
            clock.advance(Duration.ofMinutes(29));
            return ModelResponse.ofToolCalls(List.of(call("a", "list_files", Map.of())), TURN_USAGE);
        }).thenAnswers("done", TURN_USAGE);

        assertThat(agent().run(request(Duration.ofMinutes(30))).completed()).isTrue();
    }

    @Test
    void timeout_farBeyondTheRangeOfInstant_isNoDeadline() {
        model.thenCalls(TURN_USAGE, call("a", "list_files", Map.of())).thenAnswers("done", TURN_USAGE);

        assertThat(agent().run(request(Duration.ofSeconds(Long.MAX_VALUE))).completed()).isTrue();
    }

    @Test
    void interruption_betweenSteps_failsAndKeepsTheInterruptFlag() {
        model.then(sent -> {
            Thread.currentThread().interrupt();
            return ModelResponse.ofToolCalls(List.of(call("a", "list_files", Map.of())), TURN_USAGE);
        }).thenAnswers("never reached", TURN_USAGE);

        ConsolidationAgentResult result;
        try {
            result = agent().run(request(Duration.ofMinutes(30)));
        } finally {
            assertThat(Thread.interrupted()).as("interrupt flag still set").isTrue();
        }

        assertThat(result.completed()).isFalse();
        assertThat(result.error()).hasValueSatisfying(reason -> assertThat(reason).contains("interrupted after 1 steps"));
        assertThat(model.requests()).hasSize(1);
    }

    @Test
    void modelException_failsWithItsReasonAndTheUsageSoFar() {
        model.thenCalls(TURN_USAGE, call("a", "list_files", Map.of()))
                .then(sent -> {
                    throw new ModelException(ModelException.Reason.CONTEXT_WINDOW_EXCEEDED, "input is 300k tokens");
                });

        ConsolidationAgentResult result = agent().run(request(Duration.ofMinutes(30)));

        assertThat(result.completed()).isFalse();
        assertThat(result.error()).hasValueSatisfying(reason ->
                assertThat(reason).contains("CONTEXT_WINDOW_EXCEEDED", "input is 300k tokens"));
        assertThat(result.usage()).isEqualTo(TURN_USAGE);
    }

    @Test
    void unknownToolAndMalformedArguments_getErrorResultsAndTheLoopContinues() throws IOException {
        model.thenCalls(TURN_USAGE,
                        call("u", "run_shell", Map.of("command", "curl example.com")),
                        new ToolCall("j", "write_file", "{\"path\": \"MEMORY.md\", \"content\": "),
                        call("x", "write_file", Map.of("path", "MEMORY.md", "content", "m", "mode", "append")),
                        new ToolCall("t", "read_file", "{\"path\": 42}"),
                        new ToolCall("a", "read_file", "[\"MEMORY.md\"]"),
                        call("m", "edit_file", Map.of("path", "raw_memories.md")))
                .thenCalls(TURN_USAGE, call("ok", "write_file", Map.of("path", "MEMORY.md", "content", "memory\n")))
                .thenAnswers("done", TURN_USAGE);

        ConsolidationAgentResult result = agent().run(request(Duration.ofMinutes(30)));

        assertThat(result.completed()).isTrue();
        List<ModelMessage> second = model.requests().get(1).messages();
        assertThat(errorOf(second.get(2))).contains("unknown tool 'run_shell'", "list_files");
        assertThat(errorOf(second.get(3))).contains("not valid JSON");
        assertThat(errorOf(second.get(4))).contains("no argument 'mode'");
        assertThat(errorOf(second.get(5))).contains("'path'", "must be a string");
        assertThat(errorOf(second.get(6))).contains("must be a JSON object");
        assertThat(errorOf(second.get(7))).contains("needs the argument 'old_string'");
        assertThat(Files.readString(root.resolve("MEMORY.md"))).isEqualTo("memory\n");
    }

    @Test
    void escapeAttempts_eachGetAnErrorAndNothingOutsideTheRootChanges() throws IOException {
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/config"), "[core]\n");
        Files.createSymbolicLink(root.resolve("linked"), outside);
        Files.createSymbolicLink(root.resolve("MEMORY.md"), outside.resolve("keep.md"));
        Path tmpTarget = Path.of("/tmp", "mnemo-agent-escape-" + UUID.randomUUID() + ".md");
        model.thenCalls(TURN_USAGE,
                        call("1", "write_file", Map.of("path", "../outside/keep.md", "content", "pwned")),
                        call("2", "write_file", Map.of("path", tmpTarget.toString(), "content", "pwned")),
                        call("3", "write_file", Map.of("path", outside.resolve("new.md").toString(), "content", "pwned")),
                        call("4", "write_file", Map.of("path", ".git/config", "content", "pwned")),
                        call("5", "write_file", Map.of("path", "linked/new.md", "content", "pwned")),
                        call("6", "write_file", Map.of("path", "MEMORY.md", "content", "pwned")))
                .thenAnswers("done", TURN_USAGE);

        ConsolidationAgentResult result = agent().run(request(Duration.ofMinutes(30)));

        assertThat(result.completed()).isTrue();
        List<ModelMessage> second = model.requests().get(1).messages();
        for (int i = 2; i < 8; i++) {
            assertThat(errorOf(second.get(i))).as("reply to call %s", second.get(i).toolCallId()).isNotBlank();
        }
        assertThat(errorOf(second.get(6))).contains("symbolic link");
        assertThat(errorOf(second.get(7))).contains("symbolic link");
        assertThat(Files.readString(outside.resolve("keep.md"))).isEqualTo("outside text\n");
        try (var listing = Files.list(outside)) {
            assertThat(listing.map(p -> p.getFileName().toString())).containsExactly("keep.md");
        }
        assertThat(tmpTarget).doesNotExist();
        assertThat(Files.readString(root.resolve(".git/config"))).isEqualTo("[core]\n");
        assertThat(Files.isSymbolicLink(root.resolve("MEMORY.md"))).isTrue();
    }

    @Test
    void missingMemoryRoot_failsWithoutAskingTheModel() {
        ConsolidationAgentResult result = agent().run(new ConsolidationAgentRequest(temp.resolve("absent"),
                "consolidate", MODEL, Duration.ofMinutes(30)));

        assertThat(result.completed()).isFalse();
        assertThat(result.error()).hasValueSatisfying(reason -> assertThat(reason).contains("absent"));
        assertThat(model.requests()).isEmpty();
    }

    private ToolLoopConsolidationAgent agent() {
        return new ToolLoopConsolidationAgent(model, clock);
    }

    private ConsolidationAgentRequest request(Duration timeout) {
        return new ConsolidationAgentRequest(root, "consolidate the memory folder", MODEL, timeout);
    }

    private static String errorOf(ModelMessage toolMessage) throws IOException {
        assertThat(toolMessage.role()).isEqualTo(Role.TOOL);
        JsonNode reply = JSON.readTree(toolMessage.text());
        assertThat(reply.has("error")).as("reply %s", toolMessage.text()).isTrue();
        return reply.get("error").asText();
    }

    static ToolCall call(String id, String tool, Map<String, ?> arguments) {
        try {
            return new ToolCall(id, tool, JSON.writeValueAsString(new LinkedHashMap<>(arguments)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
