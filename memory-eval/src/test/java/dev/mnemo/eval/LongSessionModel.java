package dev.mnemo.eval;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted extraction model with a small window, for the long-session scenario: a request larger
 * than the window is rejected as a real provider rejects it, and an extraction (or a merge of
 * partial memories) lists the planted values it sees. Not a model; it knows nothing else.
 */
final class LongSessionModel implements LanguageModel {

    private final int windowTokens;
    final AtomicInteger largestRequest = new AtomicInteger();

    LongSessionModel(int windowTokens) {
        this.windowTokens = windowTokens;
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        long bytes = request.instructions().getBytes(StandardCharsets.UTF_8).length;
        for (ModelMessage message : request.messages()) {
            bytes += message.text().getBytes(StandardCharsets.UTF_8).length;
        }
        int tokens = (int) ((bytes + 3) / 4);
        if (tokens > windowTokens) {
            throw new ModelException(ModelException.Reason.CONTEXT_WINDOW_EXCEEDED, "This model's maximum context length"
                    + " is " + windowTokens + " tokens. However, your messages resulted in " + tokens + " tokens.");
        }
        largestRequest.accumulateAndGet(tokens, Math::max);
        String input = request.messages().get(0).text();
        TreeSet<String> seen = new TreeSet<>();
        for (String value : LongSessionRun.values()) {
            if (input.contains(value)) {
                seen.add(value);
            }
        }
        TokenUsage usage = new TokenUsage(tokens, 0, 40, 0);
        if (seen.isEmpty()) {
            return ModelResponse.ofText(stage1Json("", "", null), usage);
        }
        String facts = String.join(", ", seen);
        return ModelResponse.ofText(stage1Json("---\ndescription: settings\nkeywords: settings\n"
                + "---\n- " + facts, "# Settings named in the session\n" + facts, "settings"), usage);
    }

    private static String stage1Json(String rawMemory, String summary, String slug) {
        return new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("raw_memory", rawMemory)
                .put("rollout_summary", summary).put("rollout_slug", slug).toString();
    }

    @Override
    public OptionalInt contextWindowTokens() {
        return OptionalInt.of(windowTokens);
    }
}
