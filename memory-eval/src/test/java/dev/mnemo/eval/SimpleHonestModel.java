package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.Role;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A TEST DOUBLE, not a model: it behaves like an honest but simple one, to check the eval's
 * plumbing. Extraction keeps the lines that hold a planted keyword; consolidation copies
 * {@code raw_memories.md} into both artifacts; answers search memory (or the pasted transcripts)
 * for the question's longer words and repeat the matching lines. It resolves no contradiction, so
 * a corrected fact comes back beside its correction.
 */
class SimpleHonestModel implements LanguageModel {

    static final TokenUsage USAGE = new TokenUsage(100, 0, 20, 0);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern MEMORY_ROOT = Pattern.compile("Memory root: (.+)");
    private static final Set<String> STOP = Set.of("which", "about", "there", "again", "remind", "what", "time", "last");

    private final List<String> keywords;
    final AtomicInteger calls = new AtomicInteger();

    SimpleHonestModel(ScenarioSet set) {
        this.keywords = set.users().stream().flatMap(u -> List.of(u.preference().keyword(), u.procedure().command(),
                u.shield().keyword(), u.correction().old(), u.correction().current(), u.polluted().keyword()).stream())
                .map(k -> k.toLowerCase(Locale.ROOT)).toList();
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        calls.incrementAndGet();
        if (request.outputSchema().isPresent()) {
            return ModelResponse.ofText(extract(request.messages().get(0).text()), USAGE);
        }
        boolean consolidation = request.tools().stream().anyMatch(t -> t.name().equals("write_file"));
        if (consolidation) {
            return consolidate(request);
        }
        boolean memoryTools = request.tools().stream().anyMatch(t -> t.name().equals("memories_search"));
        if (memoryTools) {
            return answerFromMemory(request);
        }
        int begin = request.instructions().indexOf("TRANSCRIPTS BEGIN");
        if (begin >= 0) {
            return ModelResponse.ofText(answer(matching(request.instructions().substring(begin).lines().toList(),
                    question(request))), USAGE);
        }
        return ModelResponse.ofText("I don't know.", USAGE);
    }

    private String extract(String rollout) {
        Set<String> lines = new LinkedHashSet<>();
        for (String line : rollout.lines().toList()) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (keywords.stream().anyMatch(lower::contains)) {
                lines.add("- " + line.strip());
            }
        }
        String memory = String.join("\n", lines);
        ObjectNode reply = JSON.createObjectNode().put("raw_memory", memory).put("rollout_summary", memory);
        reply.putNull("rollout_slug");
        return reply.toString();
    }

    private ModelResponse consolidate(ModelRequest request) {
        ModelMessage last = request.messages().get(request.messages().size() - 1);
        if (last.role() == Role.TOOL) {
            return ModelResponse.ofText("consolidated", USAGE);
        }
        Matcher root = MEMORY_ROOT.matcher(request.messages().get(0).text());
        if (!root.find()) {
            throw new AssertionError("the consolidation prompt names no memory root");
        }
        String raw;
        try {
            raw = Files.readString(Path.of(root.group(1).trim()).resolve("raw_memories.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String bullets = raw.lines().filter(l -> l.startsWith("- ")).collect(Collectors.joining("\n"));
        return ModelResponse.ofToolCalls(List.of(write("w1", "MEMORY.md", "# Memory\n\n" + bullets + "\n"),
                write("w2", "memory_summary.md", "v1\n\n" + bullets + "\n")), USAGE);
    }

    private ModelResponse answerFromMemory(ModelRequest request) {
        ModelMessage last = request.messages().get(request.messages().size() - 1);
        if (last.role() == Role.TOOL) {
            try {
                List<String> lines = JSON.readTree(last.text()).path("matches").findValuesAsText("content");
                return ModelResponse.ofText(answer(lines), USAGE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        ObjectNode args = JSON.createObjectNode().put("case_sensitive", false);
        words(question(request)).forEach(args.putArray("queries")::add);
        return ModelResponse.ofToolCalls(List.of(new ToolCall("s1", "memories_search", args.toString())), USAGE);
    }

    static String question(ModelRequest request) {
        return request.messages().stream().filter(m -> m.role() == Role.USER).findFirst().orElseThrow().text();
    }

    static List<String> words(String question) {
        return Arrays.stream(question.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
                .filter(w -> w.length() >= 5 && !STOP.contains(w)).distinct().toList();
    }

    private static List<String> matching(List<String> lines, String question) {
        List<String> words = words(question);
        return lines.stream().filter(l -> words.stream().anyMatch(l.toLowerCase(Locale.ROOT)::contains)).toList();
    }

    private static String answer(List<String> lines) {
        return lines.isEmpty() ? "I don't know." : "From what I found:\n" + String.join("\n", lines);
    }

    private static ToolCall write(String id, String path, String content) {
        return new ToolCall(id, "write_file", JSON.createObjectNode().put("path", path).put("content", content).toString());
    }
}
