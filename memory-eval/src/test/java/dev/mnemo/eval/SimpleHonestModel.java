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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A TEST DOUBLE, not a model: it behaves like an honest but simple one, to check the eval's
 * plumbing. Extraction keeps the lines that hold a planted keyword; consolidation copies
 * {@code raw_memories.md} into the artifacts, each memory into the scope its entry names
 * ({@code project: projects/<slug>/}) except that a line found in two or more projects goes global,
 * as the consolidation prompt asks; answers follow the instructions' quick memory pass: the memory
 * summary in the instructions first, then a memory search (with {@code "scope": "project"} where
 * the tool offers it), or the pasted transcripts, for the question's longer words, and repeat the
 * matching lines. It resolves no contradiction, so a corrected fact comes back beside its
 * correction, and it cannot tell projects apart by itself: what the memory it is given holds, it
 * repeats.
 */
class SimpleHonestModel implements LanguageModel {

    static final TokenUsage USAGE = new TokenUsage(100, 0, 20, 0);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String READ_RAW = "read-raw-memories";
    private static final String SUMMARY_BEGINS = "========= MEMORY_SUMMARY BEGINS =========";
    private static final String SUMMARY_ENDS = "========= MEMORY_SUMMARY ENDS =========";
    private static final Pattern PROJECT_LINE = Pattern.compile("^project: (projects/[^/\\s]+/)\\s*$");
    private static final Set<String> STOP = Set.of("which", "about", "there", "again", "remind", "what", "time", "last");

    private final List<String> keywords;
    final AtomicInteger calls = new AtomicInteger();

    /** Extraction keeps the lines holding any of {@code keywords} (lower case). */
    SimpleHonestModel(List<String> keywords) {
        this.keywords = List.copyOf(keywords);
    }

    SimpleHonestModel(ScenarioSet set) {
        Stream<String> users = set.users().stream().flatMap(u -> Stream.of(u.preference().keyword(),
                u.procedure().command(), u.shield().keyword(), u.correction().old(), u.correction().current(),
                u.polluted().keyword()));
        Stream<String> crossProject = set.crossProject().stream().flatMap(s -> Stream.concat(Stream.of(
                s.shared().keyword()), s.projects().stream().flatMap(p -> p.facts().stream())
                .map(CrossProjectScenario.Fact::value)));
        this.keywords = Stream.concat(users, crossProject).map(k -> k.toLowerCase(Locale.ROOT)).toList();
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

    /**
     * Reads {@code raw_memories.md} with the agent's {@code read_file} tool (the prompt names no
     * server path), then writes the artifacts from it, then stops.
     */
    private ModelResponse consolidate(ModelRequest request) {
        ModelMessage last = request.messages().get(request.messages().size() - 1);
        if (last.role() != Role.TOOL) {
            return ModelResponse.ofToolCalls(List.of(new ToolCall(READ_RAW, "read_file",
                    "{\"path\":\"raw_memories.md\",\"max_lines\":1000000}")), USAGE);
        }
        if (!last.toolCallId().equals(java.util.Optional.of(READ_RAW))) {
            return ModelResponse.ofText("consolidated", USAGE);
        }
        String raw;
        try {
            raw = JSON.readTree(last.text()).path("content").asText("");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Set<String>> scopes = scopes(raw);
        List<ToolCall> writes = new ArrayList<>();
        scopes.forEach((folder, lines) -> {
            String bullets = String.join("\n", lines);
            writes.add(write("m" + writes.size(), folder + "MEMORY.md", "# Memory\n\n" + bullets + "\n"));
            writes.add(write("s" + writes.size(), folder + "memory_summary.md", "v1\n\n" + bullets + "\n"));
        });
        return ModelResponse.ofToolCalls(writes, USAGE);
    }

    /**
     * The bullets of {@code raw_memories.md} by the folder they go to: {@code ""} (global, always
     * present) or {@code projects/<slug>/}, as each entry's {@code project:} line says; a bullet
     * found in two or more projects goes global instead.
     */
    private static Map<String, Set<String>> scopes(String raw) {
        Map<String, Set<String>> byFolder = new TreeMap<>();
        byFolder.put("", new LinkedHashSet<>());
        String folder = "";
        for (String line : raw.lines().toList()) {
            Matcher project = PROJECT_LINE.matcher(line);
            if (line.startsWith("## ")) {
                folder = "";
            } else if (project.matches()) {
                folder = project.group(1);
            } else if (line.startsWith("- ")) {
                byFolder.computeIfAbsent(folder, f -> new LinkedHashSet<>()).add(line);
            }
        }
        Map<String, Integer> projectsHolding = new HashMap<>();
        byFolder.forEach((f, lines) -> lines.forEach(line -> projectsHolding.merge(line, f.isEmpty() ? 0 : 1,
                Integer::sum)));
        projectsHolding.forEach((line, projects) -> {
            if (projects >= 2) {
                byFolder.values().forEach(lines -> lines.remove(line));
                byFolder.get("").add(line);
            }
        });
        byFolder.entrySet().removeIf(e -> !e.getKey().isEmpty() && e.getValue().isEmpty());
        return byFolder;
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
        List<String> fromSummary = matching(summaryBullets(request.instructions()), question(request));
        if (!fromSummary.isEmpty()) {
            return ModelResponse.ofText(answer(fromSummary), USAGE);
        }
        ObjectNode args = JSON.createObjectNode().put("case_sensitive", false);
        boolean scoped = request.tools().stream().anyMatch(t -> t.name().equals("memories_search")
                && t.parametersJsonSchema().contains("\"scope\""));
        if (scoped) {
            args.put("scope", "project");
        }
        words(question(request)).forEach(args.putArray("queries")::add);
        return ModelResponse.ofToolCalls(List.of(new ToolCall("s1", "memories_search", args.toString())), USAGE);
    }

    /** The bullet lines of the memory summary the instructions carry (none when there is no summary). */
    private static List<String> summaryBullets(String instructions) {
        int begin = instructions.indexOf(SUMMARY_BEGINS);
        int end = instructions.indexOf(SUMMARY_ENDS);
        if (begin < 0 || end < begin) {
            return List.of();
        }
        return instructions.substring(begin, end).lines().filter(l -> l.startsWith("- ")).toList();
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
