package dev.mnemo.it;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.testkit.ScriptedLanguageModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A scripted stand-in for a language model, for pipeline tests only: it is not a model and knows
 * nothing. Its scripts are functions the tests swap while an engine holds the model; the reply
 * formats and the default consolidation come from the test kit's {@link ScriptedLanguageModel}.
 * Extraction requests (those with an output schema) are answered by {@link #extraction};
 * consolidation requests (those with tools) by {@link #consolidation}: the default script reads
 * {@code raw_memories.md} with the agent's {@code read_file} tool and writes {@code MEMORY.md} and
 * {@code memory_summary.md} from it with the agent's {@code write_file} tool, then stops.
 */
final class ScriptedModel implements LanguageModel {

    static final TokenUsage USAGE = new TokenUsage(100, 10, 20, 5);

    volatile Function<ModelRequest, String> extraction = request -> reply("a memory", "a summary", "a-slug");
    /** What each extraction answer reports having used. */
    volatile TokenUsage extractionUsage = USAGE;
    volatile Function<ModelRequest, ModelResponse> consolidation = ScriptedModel::writeArtifactsFromRawMemories;
    volatile OptionalInt contextWindow = OptionalInt.empty();
    private final List<ModelRequest> requests = new ArrayList<>();
    private final AtomicInteger extractions = new AtomicInteger();
    private final AtomicInteger consolidationTurns = new AtomicInteger();

    @Override
    public ModelResponse respond(ModelRequest request) {
        synchronized (requests) {
            requests.add(request);
        }
        if (request.outputSchema().isPresent()) {
            extractions.incrementAndGet();
            return ModelResponse.ofText(extraction.apply(request), extractionUsage);
        }
        consolidationTurns.incrementAndGet();
        return consolidation.apply(request);
    }

    @Override
    public OptionalInt contextWindowTokens() {
        return contextWindow;
    }

    List<ModelRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    List<ModelRequest> extractionRequests() {
        return requests().stream().filter(r -> r.outputSchema().isPresent()).toList();
    }

    int extractions() {
        return extractions.get();
    }

    int consolidationTurns() {
        return consolidationTurns.get();
    }

    /** A Phase 1 reply in the strict schema. */
    static String reply(String rawMemory, String summary, String slug) {
        return ScriptedLanguageModel.stage1Json(rawMemory, summary, slug);
    }

    /** The user text of an extraction request: the rendered rollout inside the input template. */
    static String extractionInput(ModelRequest request) {
        return request.messages().get(0).text();
    }

    /** First turn: write both artifacts from raw_memories.md; after the tool results: stop. */
    static ModelResponse writeArtifactsFromRawMemories(ModelRequest request) {
        return ScriptedLanguageModel.writeArtifactsFromRawMemories(request, USAGE);
    }

    static ToolCall writeFile(String id, String path, String content) {
        return ScriptedLanguageModel.writeFile(id, path, content);
    }

    static Path memoryRoot(ModelRequest request) {
        return ScriptedLanguageModel.memoryRoot(request)
                .orElseThrow(() -> new AssertionError("the consolidation prompt names no memory root"));
    }

    static String json(String text) {
        return ScriptedLanguageModel.json(text);
    }
}
