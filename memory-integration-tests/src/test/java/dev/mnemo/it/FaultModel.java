package dev.mnemo.it;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.testkit.ScriptedLanguageModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A test double standing in for a language model: every answer comes from a script (a function of
 * the request). It is not a model and no test presents it as one.
 */
final class FaultModel implements LanguageModel {

    static final TokenUsage USAGE = new TokenUsage(10, 0, 5, 0);
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private final Function<ModelRequest, ModelResponse> script;

    FaultModel(Function<ModelRequest, ModelResponse> script) {
        this.script = script;
    }

    /** Phase 1 gets a valid memory; the consolidation agent writes both artifacts, then says it is done. */
    static FaultModel happy(String summaryText) {
        return new FaultModel(request -> isExtraction(request)
                ? ModelResponse.ofText(stage1Json("summary of " + threadId(request).orElse("?"), "raw memory"), USAGE)
                : consolidationTurn(request, summaryText));
    }

    /** A model that must never be called. */
    static FaultModel unused() {
        return new FaultModel(request -> {
            throw new AssertionError("the scripted model was not expected to be called");
        });
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        return script.apply(request);
    }

    static boolean isExtraction(ModelRequest request) {
        return request.outputSchema().isPresent();
    }

    /** The thread id in a Phase 1 request (the rollout file name carries it). */
    static Optional<String> threadId(ModelRequest request) {
        for (ModelMessage message : request.messages()) {
            Matcher m = UUID.matcher(message.text());
            String last = null;
            while (m.find()) {
                last = m.group();
            }
            if (last != null) {
                return Optional.of(last);
            }
        }
        return Optional.empty();
    }

    static String stage1Json(String summary, String raw) {
        return ScriptedLanguageModel.stage1Json(raw, summary, "slug");
    }

    /** First turn: write MEMORY.md and memory_summary.md; after the tool results: done. */
    static ModelResponse consolidationTurn(ModelRequest request, String summaryText) {
        if (ScriptedLanguageModel.afterToolResults(request)) {
            return ModelResponse.ofText("done", USAGE);
        }
        return ModelResponse.ofToolCalls(List.of(writeFile("c1", "MEMORY.md", "# Memory\n\n- " + summaryText + "\n"),
                writeFile("c2", "memory_summary.md", "v1\n" + summaryText + "\n")), USAGE);
    }

    static ToolCall writeFile(String id, String path, String content) {
        return ScriptedLanguageModel.writeFile(id, path, content);
    }

    static String quote(String text) {
        return ScriptedLanguageModel.json(text);
    }

    static List<ToolCall> calls(ToolCall... calls) {
        return new ArrayList<>(List.of(calls));
    }
}
