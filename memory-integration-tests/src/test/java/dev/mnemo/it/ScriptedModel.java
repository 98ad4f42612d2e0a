package dev.mnemo.it;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.Role;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scripted stand-in for a language model, for pipeline tests only: it is not a model and knows
 * nothing. Extraction requests (those with an output schema) are answered by {@link #extraction};
 * consolidation requests (those with tools) by {@link #consolidation}: the default script reads
 * {@code raw_memories.md} from the memory root named in the prompt and writes {@code MEMORY.md} and
 * {@code memory_summary.md} from it with the agent's {@code write_file} tool, then stops.
 */
final class ScriptedModel implements LanguageModel {

    static final TokenUsage USAGE = new TokenUsage(100, 10, 20, 5);
    private static final Pattern MEMORY_ROOT = Pattern.compile("Memory root: (.+)");

    volatile Function<ModelRequest, String> extraction = request -> reply("a memory", "a summary", "a-slug");
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
            return ModelResponse.ofText(extraction.apply(request), USAGE);
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
        return "{\"raw_memory\":" + json(rawMemory) + ",\"rollout_summary\":" + json(summary) + ",\"rollout_slug\":"
                + (slug == null ? "null" : json(slug)) + "}";
    }

    /** The user text of an extraction request: the rendered rollout inside the input template. */
    static String extractionInput(ModelRequest request) {
        return request.messages().get(0).text();
    }

    /** First turn: write both artifacts from raw_memories.md; after the tool results: stop. */
    static ModelResponse writeArtifactsFromRawMemories(ModelRequest request) {
        if (request.messages().get(request.messages().size() - 1).role() == Role.TOOL) {
            return ModelResponse.ofText("consolidated", USAGE);
        }
        Path root = memoryRoot(request);
        String raw;
        try {
            raw = Files.readString(root.resolve("raw_memories.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String memory = "# Task Group: everything\n\n" + raw;
        String summary = "v1\n\n## User Profile\nA scripted profile.\n\n## What's in Memory\n" + raw.lines()
                .filter(l -> l.startsWith("## Thread")).map(l -> "- " + l.substring(3)).reduce("", (a, b) -> a + b + "\n");
        return ModelResponse.ofToolCalls(List.of(
                writeFile("w1", "MEMORY.md", memory),
                writeFile("w2", "memory_summary.md", summary)), USAGE);
    }

    static ToolCall writeFile(String id, String path, String content) {
        return new ToolCall(id, "write_file", "{\"path\":" + json(path) + ",\"content\":" + json(content) + "}");
    }

    static Path memoryRoot(ModelRequest request) {
        Matcher m = MEMORY_ROOT.matcher(request.messages().get(0).text());
        if (!m.find()) {
            throw new AssertionError("the consolidation prompt names no memory root");
        }
        return Path.of(m.group(1).trim());
    }

    static String json(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
