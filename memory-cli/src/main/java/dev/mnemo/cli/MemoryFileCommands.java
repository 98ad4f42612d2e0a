package dev.mnemo.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryEngine;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ls}, {@code read}, {@code search} and {@code note}: the memory folder through the same
 * memory tools an agent's model gets, so the same path-safety rules and limits apply.
 */
final class MemoryFileCommands {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MemoryFileCommands() {}

    /**
     * Calls one memory tool; a tool error becomes exit code 1 with its message. Only the note tool
     * may create the home; the read-only tools need an existing one.
     */
    static JsonNode call(MnemoCli root, String tool, ObjectNode arguments) {
        boolean writes = tool.equals("memories_add_ad_hoc_note");
        try (MemoryEngine engine = writes ? root.openEngine() : root.openExistingEngine()) {
            JsonNode result = JSON.readTree(engine.tools().call(tool, arguments.toString()));
            if (result.has("error")) {
                throw new MnemoCli.Failure(tool + ": " + result.get("error").asText());
            }
            return result;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("the memory tool " + tool + " answered with malformed JSON", e);
        }
    }

    /** {@code mnemo ls [PATH]}. */
    @Command(name = "ls", description = "List a folder of the memory store (default: its root).")
    static final class Ls implements Callable<Integer> {
        private static final String EMPTY_ROOT = "the memory folder is empty (nothing consolidated yet: `mnemo run`)";

        @ParentCommand
        MnemoCli root;

        @Parameters(arity = "0..1", paramLabel = "PATH", description = "Folder relative to the memory root.")
        String path;

        @Option(names = "--json", description = "Print the tool's JSON result.")
        boolean json;

        @Override
        public Integer call() {
            ObjectNode args = JSON.createObjectNode();
            if (path != null) {
                args.put("path", path);
            }
            PrintWriter out = root.out();
            if (path == null && !json && Files.isDirectory(root.resolveHome())
                    && !Files.isDirectory(root.resolveHome().resolve("memories"))) {
                out.println(EMPTY_ROOT);
                out.flush();
                return 0;
            }
            JsonNode result = MemoryFileCommands.call(root, "memories_list", args);
            if (json) {
                out.println(result.toPrettyString());
            } else {
                if (result.path("entries").isEmpty()) {
                    out.println(path == null ? EMPTY_ROOT : path + " is empty");
                }
                result.path("entries").forEach(e -> out.println(e.path("path").asText()
                        + ("directory".equals(e.path("entry_type").asText()) ? "/" : "")));
                if (result.path("truncated").asBoolean(false)) {
                    out.println("[more entries: use --json to see next_cursor]");
                }
            }
            out.flush();
            return 0;
        }
    }

    /** {@code mnemo read PATH}. */
    @Command(name = "read", description = "Print a memory file.")
    static final class Read implements Callable<Integer> {
        @ParentCommand
        MnemoCli root;

        @Parameters(paramLabel = "PATH", description = "File relative to the memory root, e.g. MEMORY.md.")
        String path;

        @Override
        public Integer call() {
            ObjectNode args = JSON.createObjectNode().put("path", path);
            JsonNode result = MemoryFileCommands.call(root, "memories_read", args);
            root.out().print(result.path("content").asText());
            if (result.path("truncated").asBoolean(false)) {
                root.out().println();
                root.out().println("[truncated by the read tool's limit]");
            }
            root.out().flush();
            return 0;
        }
    }

    /** {@code mnemo search QUERY...}. */
    @Command(name = "search", description = "Find lines in the memory files containing any of the queries.")
    static final class Search implements Callable<Integer> {
        @ParentCommand
        MnemoCli root;

        @Parameters(arity = "1..*", paramLabel = "QUERY", description = "Substrings to look for.")
        List<String> queries;

        @Option(names = {"-i", "--ignore-case"}, description = "Ignore letter case.")
        boolean ignoreCase;

        @Option(names = "--all", description = "Only lines containing every query.")
        boolean all;

        @Option(names = "--json", description = "Print the tool's JSON result.")
        boolean json;

        @Override
        public Integer call() {
            ObjectNode args = JSON.createObjectNode();
            queries.forEach(args.putArray("queries")::add);
            args.putObject("match_mode").put("type", all ? "all_on_same_line" : "any");
            args.put("case_sensitive", !ignoreCase);
            JsonNode result = MemoryFileCommands.call(root, "memories_search", args);
            PrintWriter out = root.out();
            if (json) {
                out.println(result.toPrettyString());
            } else {
                result.path("matches").forEach(m -> out.println(m.path("path").asText() + ":"
                        + m.path("match_line_number").asInt() + ": " + m.path("content").asText().strip()));
                if (result.path("matches").isEmpty()) {
                    out.println("no matches");
                }
            }
            out.flush();
            return 0;
        }
    }

    /** {@code mnemo note TEXT}: an ad-hoc note, folded into memory at the next consolidation. */
    @Command(name = "note", description = "Add an ad-hoc memory note (folded in at the next consolidation).")
    static final class Note implements Callable<Integer> {
        private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss");

        @ParentCommand
        MnemoCli root;

        @Parameters(arity = "1..*", paramLabel = "TEXT", description = "What to remember, forget or correct.")
        List<String> words;

        @Override
        public Integer call() {
            String text = String.join(" ", words);
            String filename = STAMP.format(ZonedDateTime.now(ZoneOffset.UTC)) + "-" + slug(text) + ".md";
            ObjectNode args = JSON.createObjectNode().put("filename", filename).put("note", text);
            MemoryFileCommands.call(root, "memories_add_ad_hoc_note", args);
            root.out().println("noted as " + filename + "; it is folded into memory at the next consolidation");
            root.out().flush();
            return 0;
        }

        /** Up to five words of the note, lower-case ASCII letters and digits joined by hyphens. */
        static String slug(String text) {
            String slug = String.join("-", java.util.Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+"))
                    .filter(w -> !w.isEmpty()).limit(5).toList());
            slug = slug.length() > 60 ? slug.substring(0, 60).replaceAll("-+$", "") : slug;
            return slug.isEmpty() ? "note" : slug;
        }
    }
}
