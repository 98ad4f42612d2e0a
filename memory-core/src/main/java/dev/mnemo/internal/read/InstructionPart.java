package dev.mnemo.internal.read;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pieces of the memory section that differ by audience (a model handed the memory tools, or one
 * reading the folder with its own shell) or by what the folder holds (projects, pending notes), in
 * {@code developer_instructions_parts.md} beside {@code developer_instructions.md}: each piece's name
 * there and the values it takes. The file must hold every piece, each with exactly its values; it is
 * read when a piece is first filled.
 */
enum InstructionPart {
    TOOLS_RAW_LAYOUT("tools.raw_layout"),
    SHELL_RAW_LAYOUT("shell.raw_layout"),
    TOOLS_SEARCH_HOW("tools.search_how", "search_tool"),
    SHELL_SEARCH_HOW("shell.search_how", "base"),
    TOOLS_OPEN_HOW("tools.open_how", "read_tool", "list_tool"),
    SHELL_OPEN_HOW("shell.open_how"),
    TOOLS_RAW_HOW("tools.raw_how"),
    SHELL_RAW_HOW("shell.raw_how"),
    TOOLS_NOTE_HOW("tools.note_how", "note_tool"),
    SHELL_NOTE_HOW("shell.note_how", "base"),
    /** The layout line of a session in a project. */
    LAYOUT_THIS_PROJECT("layout.this_project", "prefix", "project_folder", "projects"),
    /** The layout line of a session in no project, when the folder has projects. */
    LAYOUT_PROJECTS("layout.projects", "prefix", "projects"),
    NOTES_HEADING("notes.heading"),
    NOTE("notes.note", "note"),
    PROJECT_NOTE("notes.project_note", "note"),
    NOTES_ONE_MORE("notes.one_more", "folder"),
    NOTES_MORE("notes.more", "count", "folder"),
    PROJECT_HEADING("summary.project_heading", "project_folder"),
    PROJECT_HEADING_KEYED("summary.project_heading_keyed", "project_folder", "project_key"),
    GLOBAL_HEADING("summary.global_heading", "summary_file"),
    GLOBAL_LEFT_OUT("summary.global_left_out"),
    /** The index of projects, for a session in none. */
    INDEX("index.line", "projects", "summary_file", "slugs", "more"),
    INDEX_MORE("index.more", "count", "projects");

    static final String RESOURCE = "developer_instructions_parts.md";

    private final String key;
    private final Set<String> placeholders;

    InstructionPart(String key, String... placeholders) {
        this.key = key;
        this.placeholders = Set.of(placeholders);
    }

    /**
     * The piece with its values, given as name and value in turn.
     *
     * @throws IllegalArgumentException when a value the piece takes is missing
     */
    String fill(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values come in pairs; " + namesAndValues.length + " given");
        }
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return InstructionsTemplate.append(new StringBuilder(), Loaded.PIECES.get(this), values).toString();
    }

    /** The pieces, read and split on first use. */
    private static final class Loaded {
        static final Map<InstructionPart, List<InstructionsTemplate.Segment>> PIECES = split(
                InstructionsTemplate.load(RESOURCE));
    }

    private static final Pattern MARKER = Pattern.compile("(?m)^<!-- part: ([a-z_.]+) -->\n");

    /**
     * Splits the pieces file at its marker lines; what precedes the first marker is a comment.
     *
     * @throws IllegalStateException when a piece is missing, repeated or unknown, or does not use
     *     exactly its values
     */
    static Map<InstructionPart, List<InstructionsTemplate.Segment>> split(String file) {
        Map<String, String> texts = new HashMap<>();
        Matcher marker = MARKER.matcher(file);
        String name = null;
        int start = 0;
        while (marker.find()) {
            if (name != null) {
                put(texts, name, file.substring(start, marker.start()));
            }
            name = marker.group(1);
            start = marker.end();
        }
        if (name != null) {
            put(texts, name, file.substring(start));
        }
        Map<InstructionPart, List<InstructionsTemplate.Segment>> pieces = new EnumMap<>(InstructionPart.class);
        for (InstructionPart part : values()) {
            String text = texts.remove(part.key);
            if (text == null) {
                throw new IllegalStateException(RESOURCE + " has no piece " + part.key);
            }
            pieces.put(part, InstructionsTemplate.parse(text, part.placeholders, RESOURCE + " piece " + part.key));
        }
        if (!texts.isEmpty()) {
            throw new IllegalStateException(RESOURCE + " has pieces nothing uses: " + texts.keySet());
        }
        return pieces;
    }

    private static void put(Map<String, String> texts, String name, String text) {
        if (texts.put(name, text.replaceFirst("\n+\\z", "")) != null) {
            throw new IllegalStateException(RESOURCE + " has the piece " + name + " twice");
        }
    }
}
