package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ValueRecordsTest {

    @Test
    void tokenUsage_rejectsNegativeCountsNamingTheComponent() {
        assertThatThrownBy(() -> new TokenUsage(1, -1, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cachedInputTokens");
    }

    @Test
    void tokenUsage_plusAddsEveryComponent() {
        TokenUsage sum = new TokenUsage(10, 2, 5, 1).plus(new TokenUsage(1, 1, 1, 1));
        assertThat(sum).isEqualTo(new TokenUsage(11, 3, 6, 2));
        assertThat(sum.totalTokens()).isEqualTo(17);
        assertThat(TokenUsage.ZERO.plus(sum)).isEqualTo(sum);
    }

    @Test
    void modelRequest_copiesCollectionsSoLaterChangesDoNotLeakIn() {
        List<ModelMessage> messages = new ArrayList<>(List.of(ModelMessage.user("hi")));
        Map<String, String> metadata = new HashMap<>(Map.of("k", "v"));
        ModelRequest request = new ModelRequest("m", "", messages, List.of(), Optional.empty(), ReasoningEffort.LOW,
                metadata);
        messages.add(ModelMessage.user("later"));
        metadata.put("k2", "v2");
        assertThat(request.messages()).hasSize(1);
        assertThat(request.metadata()).containsOnlyKeys("k");
        assertThatThrownBy(() -> request.messages().add(ModelMessage.user("x")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void modelRequest_needsInstructionsOrAMessage() {
        assertThatThrownBy(() -> ModelRequest.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("instructions or at least one message");
    }

    @Test
    void modelRequest_builderRoundTripsThroughToBuilder() {
        ModelRequest request = ModelRequest.builder()
                .model("gpt")
                .instructions("be brief")
                .message(ModelMessage.user("hello"))
                .tool(new ToolSpec("memories_list", "lists", "{}"))
                .outputSchema(new OutputSchema("out", "{}", true))
                .reasoningEffort(ReasoningEffort.LOW)
                .metadata("request_kind", "memory")
                .build();
        assertThat(request.toBuilder().build()).isEqualTo(request);
        assertThat(request.outputSchema()).map(OutputSchema::strict).contains(true);
    }

    @Test
    void modelRequest_rejectsNullComponentsByName() {
        assertThatThrownBy(() -> new ModelRequest(null, "", List.of(ModelMessage.user("x")), List.of(),
                Optional.empty(), ReasoningEffort.LOW, Map.of()))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("model");
    }

    @Test
    void modelMessage_toolMessagesCarryTheCallIdTheyAnswer() {
        ModelMessage tool = ModelMessage.tool("call_1", "{\"ok\":true}");
        assertThat(tool.role()).isEqualTo(Role.TOOL);
        assertThat(tool.toolCallId()).contains("call_1");
        assertThatThrownBy(() -> new ModelMessage(Role.TOOL, "x", List.of(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void modelMessage_onlyAssistantTurnsCarryToolCalls() {
        ToolCall call = new ToolCall("c1", "memories_read", "{}");
        assertThat(ModelMessage.assistant("", List.of(call)).toolCalls()).containsExactly(call);
        assertThatThrownBy(() -> new ModelMessage(Role.USER, "x", List.of(call), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("USER");
    }

    @Test
    void modelResponse_copiesToolCalls() {
        List<ToolCall> calls = new ArrayList<>(List.of(new ToolCall("c1", "t", "{}")));
        ModelResponse response = ModelResponse.ofToolCalls(calls, TokenUsage.ZERO);
        calls.clear();
        assertThat(response.toolCalls()).hasSize(1);
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
    }

    @Test
    void rateLimitSnapshot_rejectsNegativeOrNaNPercent() {
        assertThatThrownBy(() -> new RateLimitSnapshot(OptionalDouble.of(-1), OptionalDouble.empty(), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("primaryUsedPercent");
        assertThatThrownBy(() -> new RateLimitSnapshot(OptionalDouble.empty(), OptionalDouble.of(Double.NaN), false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void blankNamesAreRejected() {
        assertThatThrownBy(() -> new ToolSpec(" ", "d", "{}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutputSchema("", "{}", true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void modelException_retryableFollowsTheReason() {
        assertThat(new ModelException(ModelException.Reason.RATE_LIMITED, "slow down").retryable()).isTrue();
        assertThat(new ModelException(ModelException.Reason.TIMEOUT, "t").retryable()).isTrue();
        assertThat(new ModelException(ModelException.Reason.SERVER, "s").retryable()).isTrue();
        assertThat(new ModelException(ModelException.Reason.NETWORK, "n").retryable()).isTrue();
        assertThat(new ModelException(ModelException.Reason.AUTHENTICATION, "a").retryable()).isFalse();
        assertThat(new ModelException(ModelException.Reason.INVALID_REQUEST, "i").retryable()).isFalse();
        assertThat(new ModelException(ModelException.Reason.CONTEXT_WINDOW_EXCEEDED, "c").retryable()).isFalse();
        ModelException e = new ModelException(ModelException.Reason.SERVER, "boom");
        assertThat(e.reason()).isEqualTo(ModelException.Reason.SERVER);
        assertThat(e).hasToString(ModelException.class.getName() + "[SERVER]: boom");
    }
}
