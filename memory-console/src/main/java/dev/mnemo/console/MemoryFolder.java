package dev.mnemo.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryTools;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The memory folder as the console reads it: through the engine's memory tools, the same ones a
 * model gets, so every path is confined to the folder by the engine (no {@code ..}, no absolute
 * path, no symbolic link, hidden files invisible) and the console never opens a file itself. Works
 * the same for a home's folder and a tenant's.
 */
final class MemoryFolder {

    /** The summary every session reads, at the top of the folder and of each project. */
    static final String SUMMARY = "memory_summary.md";
    /** The handbook. */
    static final String HANDBOOK = "MEMORY.md";
    /** The folder of per-project memory. */
    static final String PROJECTS = "projects";
    /** How deep the file tree is listed, and how many entries at most. */
    static final int TREE_DEPTH = 4;
    static final int TREE_ENTRIES = 2_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final MemoryTools tools;

    MemoryFolder(MemoryTools tools) {
        this.tools = tools;
    }

    /** A file or folder, by its path relative to the memory folder. */
    record Entry(String path, boolean directory, int depth) {
        String name() {
            return path.substring(path.lastIndexOf('/') + 1);
        }
    }

    /** A file's text; {@code truncated} when the read tool's limit cut it. */
    record FileText(String path, String content, boolean truncated) {}

    /** A search hit: the file, the line number and the line. */
    record Match(String path, int line, String content) {}

    /**
     * A file's text, or empty when there is no such file.
     *
     * @throws HttpProblem 400 when the tools refuse the path (out of the folder, a symbolic link, a folder)
     */
    Optional<FileText> read(String path) {
        ObjectNode args = JSON.createObjectNode().put("path", path);
        JsonNode result = call(MemoryTools.READ, args);
        if (result.has("error")) {
            String error = result.path("error").asText();
            if (error.endsWith("was not found")) {
                return Optional.empty();
            }
            throw HttpProblem.badRequest(error);
        }
        return Optional.of(new FileText(path, result.path("content").asText(), result.path("truncated").asBoolean()));
    }

    /** The entries directly in {@code folder} ({@code ""} for the top); empty when there is no such folder. */
    List<Entry> list(String folder, int depth) {
        List<Entry> entries = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            ObjectNode args = JSON.createObjectNode();
            if (!folder.isEmpty()) {
                args.put("path", folder);
            }
            cursor.ifPresent(c -> args.put("cursor", c));
            JsonNode result = call(MemoryTools.LIST, args);
            if (result.has("error")) {
                return entries;
            }
            for (JsonNode entry : result.path("entries")) {
                entries.add(new Entry(entry.path("path").asText(),
                        "directory".equals(entry.path("entry_type").asText()), depth));
            }
            cursor = Optional.ofNullable(result.path("next_cursor").textValue());
        } while (cursor.isPresent() && entries.size() < TREE_ENTRIES);
        return entries;
    }

    /**
     * Every file and folder, depth first, the summary and the handbook first at the top, at most
     * {@value #TREE_DEPTH} folders deep and {@value #TREE_ENTRIES} entries.
     */
    List<Entry> tree() {
        List<Entry> tree = new ArrayList<>();
        List<Entry> top = new ArrayList<>(list("", 0));
        top.sort((a, b) -> Integer.compare(rank(a), rank(b)));
        walk(top, tree);
        return tree;
    }

    private void walk(List<Entry> entries, List<Entry> tree) {
        for (Entry entry : entries) {
            if (tree.size() >= TREE_ENTRIES) {
                return;
            }
            tree.add(entry);
            if (entry.directory() && entry.depth() + 1 < TREE_DEPTH) {
                walk(list(entry.path(), entry.depth() + 1), tree);
            }
        }
    }

    /** The summary, then the handbook, then files, then folders; the listing's order otherwise. */
    private static int rank(Entry entry) {
        if (entry.path().equals(SUMMARY)) {
            return 0;
        }
        if (entry.path().equals(HANDBOOK)) {
            return 1;
        }
        return entry.directory() ? 3 : 2;
    }

    /** The project folders ({@code projects/<slug>}). */
    List<String> projectFolders() {
        return list(PROJECTS, 1).stream().filter(Entry::directory).map(Entry::path).toList();
    }

    /**
     * Lines that contain {@code query}, ignoring case, across the whole folder.
     *
     * @throws HttpProblem 400 when the search tool refuses the query
     */
    List<Match> search(String query) {
        ObjectNode args = JSON.createObjectNode();
        args.putArray("queries").add(query);
        args.put("case_sensitive", false);
        JsonNode result = call(MemoryTools.SEARCH, args);
        if (result.path("error").asText().endsWith("was not found")) {
            return List.of();
        }
        if (result.has("error")) {
            throw HttpProblem.badRequest(result.path("error").asText());
        }
        List<Match> matches = new ArrayList<>();
        for (JsonNode match : result.path("matches")) {
            matches.add(new Match(match.path("path").asText(), match.path("match_line_number").asInt(),
                    match.path("content").asText()));
        }
        return matches;
    }

    private JsonNode call(String tool, ObjectNode arguments) {
        try {
            return JSON.readTree(tools.call(tool, arguments.toString()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the memory tool " + tool + " answered with malformed JSON", e);
        }
    }
}
