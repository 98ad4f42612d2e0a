package dev.mnemo.benchmarks;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.Role;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A scripted stand-in for a language model, for measuring Mnemo's own cost: fixed answers after a
 * fixed delay, or no answer at all. It is not a model.
 */
final class BenchModel implements LanguageModel {

    private static final TokenUsage USAGE = new TokenUsage(100, 0, 20, 0);

    private final long delayMillis;
    private final CountDownLatch blocker;

    private BenchModel(long delayMillis, CountDownLatch blocker) {
        this.delayMillis = delayMillis;
        this.blocker = blocker;
    }

    /** Answers at once. */
    static BenchModel instant() {
        return new BenchModel(0, null);
    }

    /** Answers after {@code millis}. */
    static BenchModel delayed(long millis) {
        return new BenchModel(millis, null);
    }

    /** Never answers until {@code release} counts down. */
    static BenchModel blockedUntil(CountDownLatch release) {
        return new BenchModel(0, release);
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        try {
            if (blocker != null) {
                blocker.await();
            }
            if (delayMillis > 0) {
                Thread.sleep(delayMillis); // the model's latency being simulated
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (request.outputSchema().isPresent()) {
            return ModelResponse.ofText("{\"rollout_summary\":\"The user fixed a flaky build by isolating temp folders.\","
                    + "\"rollout_slug\":\"flaky-build\",\"raw_memory\":\"- flaky builds came from a shared temp folder\"}",
                    USAGE);
        }
        List<ModelMessage> messages = request.messages();
        if (!messages.isEmpty() && messages.get(messages.size() - 1).role() == Role.TOOL) {
            return ModelResponse.ofText("done", USAGE);
        }
        return ModelResponse.ofToolCalls(List.of(
                new ToolCall("m", "write_file", "{\"path\":\"MEMORY.md\",\"content\":\"# Memory\\n- builds\\n\"}"),
                new ToolCall("s", "write_file", "{\"path\":\"memory_summary.md\",\"content\":\"v1\\nbuilds\\n\"}")),
                USAGE);
    }
}
