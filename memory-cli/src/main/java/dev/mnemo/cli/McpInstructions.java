package dev.mnemo.cli;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryException;
import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The MCP server's {@code instructions}: the memory itself first, then the least guidance a model
 * handed the memory tools needs, the whole within what MCP clients keep of a server's instructions.
 *
 * <p>Order: one lead sentence; the notes not yet consolidated and the summaries of the session's
 * scopes, as an agent built on Mnemo gets them (the project {@code --project} named, then the
 * global memory; without a project, the global summary and the index of projects with memory),
 * each summary capped by the home's {@code summary_token_limit}; then the guidance (which tool for
 * what, paths relative to the memory folder, no citation block, read-only or the note tool). A
 * client that keeps less than this text still keeps the summary's start (and the lead names the
 * tools).
 *
 * <p>{@value #CLIENT_LIMIT} characters (UTF-16 code units, as Claude Code counts them) is the least
 * any documented client keeps: Claude Code 2.1.332 cuts at 4,096; Codex CLI 0.171.0, which makes
 * the instructions the description of the server's tool namespace, documents no limit and passed
 * 480,019 characters whole to a scripted model. When the memory is longer than the room the
 * guidance leaves, it is cut at a line boundary and a marker says where the rest is
 * ({@code memory_summary.md}, read with {@code memories_read}, and the {@code line_offset} to read
 * on from when the lines shown are the file's own); the notes get at most a third of the room when
 * the summary needs the rest.
 *
 * <p>Rendered once, when the server starts (MCP sends instructions once, in the {@code initialize}
 * answer). Reading the home never creates or writes anything.
 */
final class McpInstructions {

    /** The most characters of a server's instructions every documented client keeps (Claude Code 2.1.332). */
    static final int CLIENT_LIMIT = 4_096;

    /** The lines between which {@link MemoryTools#instructionsForFolder} places the memory itself. */
    private static final String SUMMARY_BEGINS = "========= MEMORY_SUMMARY BEGINS =========\n";
    private static final String SUMMARY_ENDS = "\n========= MEMORY_SUMMARY ENDS =========";
    /** How the memory section names its parts. */
    private static final String NOTES_HEADING = "## Recent notes";
    private static final String PROJECTS_INDEX = "Projects with memory of their own";
    private static final String NOTES_FOLDER = "extensions/ad_hoc/notes/";
    private static final String SUMMARY_FILE = "memory_summary.md";
    /** The headings the summaries come under: the project's, the global one in a project, ours without one. */
    private static final String SUMMARY_HEADING = "## Memory ";
    private static final String PROJECT_HEADING = "## Memory of this project";

    static final String LEAD = "Mnemo memory: what earlier sessions with this user learned, served by this MCP"
            + " server. The memory comes first; `" + MemoryTools.SEARCH + "` and `" + MemoryTools.READ + "` find and"
            + " open more of it (how: at the end).";
    static final String LEAD_WITHOUT_SUMMARY = "Mnemo memory: what earlier sessions with this user learned, served"
            + " by this MCP server. It has no summary yet.";

    private McpInstructions() {}

    /**
     * The instructions for the memory folder of {@code home}, within {@link #CLIENT_LIMIT}.
     *
     * @param allowNotes whether the note tool is served (else changes are left to the user)
     * @param project the project whose memory to carry beside the global one, if any
     */
    static String render(Path home, boolean allowNotes, Optional<String> project) {
        return render(home, allowNotes, project, CLIENT_LIMIT);
    }

    /** {@link #render(Path, boolean, Optional)} within {@code limit} characters. */
    static String render(Path home, boolean allowNotes, Optional<String> project, int limit) {
        Path memoryRoot = home.resolve("memories");
        Optional<String> slug = project.map(ProjectKeys::slug);
        String memory = Files.isDirectory(home) ? memorySection(home, memoryRoot, project) : "";
        String guidance = guidance(allowNotes, slug, Files.isDirectory(memoryRoot.resolve(ProjectKeys.FOLDER)));
        if (memory.isEmpty()) {
            return LEAD_WITHOUT_SUMMARY + "\n\n" + guidance;
        }
        int room = limit - LEAD.length() - guidance.length() - 4;
        return LEAD + "\n\n" + fit(memory, room, limit, memoryRoot, slug) + "\n\n" + guidance;
    }

    /**
     * The notes and summaries an agent gets for this scope, as the memory tools render them, or
     * {@code ""} when there are none (or {@code use_memories} is off).
     */
    private static String memorySection(Path home, Path memoryRoot, Optional<String> project) {
        MemoriesConfig config = config(home);
        String forTools = project.map(key -> MemoryTools.instructionsForFolder(memoryRoot, config, key))
                .orElseGet(() -> MemoryTools.instructionsForFolder(memoryRoot, config));
        int begins = forTools.indexOf(SUMMARY_BEGINS);
        int ends = forTools.lastIndexOf(SUMMARY_ENDS);
        if (begins < 0 || ends < begins + SUMMARY_BEGINS.length()) {
            return "";
        }
        String section = forTools.substring(begins + SUMMARY_BEGINS.length(), ends).strip();
        if (project.isPresent()) {
            return section; // the project's and the global summary carry their own headings
        }
        String[] parts = splitNotes(section);
        String rest = parts[1];
        if (!rest.isEmpty() && !rest.startsWith(PROJECTS_INDEX)) {
            rest = SUMMARY_HEADING + "summary (" + SUMMARY_FILE + ")\n\n" + rest;
        }
        return parts[0].isEmpty() ? rest : rest.isEmpty() ? parts[0] : parts[0] + "\n\n" + rest;
    }

    /** The notes block the section starts with (or {@code ""}) and what follows it. */
    private static String[] splitNotes(String section) {
        if (!section.startsWith(NOTES_HEADING)) {
            return new String[] {"", section};
        }
        int body = section.indexOf("\n\n");
        int end = body < 0 ? -1 : section.indexOf("\n\n", body + 2);
        return end < 0 ? new String[] {section, ""} : new String[] {section.substring(0, end), section.substring(end + 2)};
    }

    /**
     * The memory section within {@code room} characters: whole when it fits; else the notes within
     * a third of the room (or what the summaries leave) and the summaries in the rest, each cut at a
     * line boundary with a marker.
     */
    static String fit(String memory, int room, int limit, Path memoryRoot, Optional<String> slug) {
        if (memory.length() <= room) {
            return memory;
        }
        String[] parts = splitNotes(memory);
        if (parts[0].isEmpty()) {
            return cutSummaries(memory, room, limit, memoryRoot, slug);
        }
        String notesMarker = "- (more notes under `" + NOTES_FOLDER + "`; read them with `" + MemoryTools.READ + "`)";
        int notesRoom = Math.min(parts[0].length(), Math.max(room / 3, room - parts[1].length() - 2));
        String notes = cutAtLine(parts[0], notesRoom, notesMarker);
        return parts[1].isEmpty() ? notes
                : notes + "\n\n" + cutSummaries(parts[1], room - notes.length() - 2, limit, memoryRoot, slug);
    }

    /**
     * The summaries within {@code room}, cut at a line boundary with a marker naming the file to
     * read on, and the line to read on from when the kept lines are that file's lines.
     */
    private static String cutSummaries(String summaries, int room, int limit, Path memoryRoot, Optional<String> slug) {
        String longest = summaryMarker(limit, slug.map(McpInstructions::projectSummary), OptionalInt.of(9_999_999), slug);
        String cut = cutAtLine(summaries, room, longest);
        if (!cut.endsWith("\n" + longest)) {
            return cut;
        }
        String kept = cut.substring(0, cut.length() - longest.length() - 1);
        int heading = kept.startsWith(SUMMARY_HEADING) ? 0 : kept.lastIndexOf("\n" + SUMMARY_HEADING) + 1;
        int headingEnd = heading > 0 || kept.startsWith(SUMMARY_HEADING) ? kept.indexOf("\n\n", heading) : -1;
        if (headingEnd < 0) {
            return kept + "\n" + summaryMarker(limit, Optional.empty(), OptionalInt.empty(), slug);
        }
        boolean inProject = kept.startsWith(PROJECT_HEADING, heading) && slug.isPresent();
        String file = inProject ? projectSummary(slug.get()) : SUMMARY_FILE;
        OptionalInt next = nextLine(memoryRoot.resolve(file), kept.substring(headingEnd + 2));
        return kept + "\n" + summaryMarker(limit, next.isPresent() ? Optional.of(file) : Optional.empty(), next,
                inProject ? slug : Optional.empty());
    }

    /**
     * The marker in place of the summaries cut away: it names {@code from} (with {@code line}, the
     * {@code line_offset} to read on from, when known), then the global summary when the cut is in
     * the project's ({@code slug}); with neither, the summaries of the scope.
     */
    private static String summaryMarker(int limit, Optional<String> from, OptionalInt line, Optional<String> slug) {
        StringBuilder out = new StringBuilder("[Cut here: MCP clients keep ").append(String.format("%,d", limit))
                .append(" characters of these instructions. Read the rest with `").append(MemoryTools.READ).append("`: ");
        String first = from.orElse(slug.map(McpInstructions::projectSummary).orElse(SUMMARY_FILE));
        out.append('`').append(first).append('`');
        line.ifPresent(n -> out.append(" from line_offset ").append(n));
        if (!first.equals(SUMMARY_FILE)) {
            out.append(", then `").append(SUMMARY_FILE).append('`');
        }
        return out.append(".]").toString();
    }

    private static String projectSummary(String slug) {
        return ProjectKeys.FOLDER + "/" + slug + "/" + SUMMARY_FILE;
    }

    /**
     * The {@code line_offset} in {@code file} of the line after the last of {@code kept}, when the
     * file holds {@code kept}'s last two lines there (the summary is shown stripped of leading blank
     * lines, and cut, scrubbed or capped text would not match).
     */
    private static OptionalInt nextLine(Path file, String kept) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException e) {
            return OptionalInt.empty();
        }
        String[] shown = kept.split("\n", -1);
        int leading = 0;
        while (leading < lines.size() && lines.get(leading).isBlank()) {
            leading++;
        }
        int last = leading + shown.length - 1;
        boolean same = last + 1 < lines.size() && lines.get(last).equals(shown[shown.length - 1])
                && (shown.length == 1 || lines.get(last - 1).equals(shown[shown.length - 2]));
        return same ? OptionalInt.of(last + 2) : OptionalInt.empty();
    }

    /**
     * {@code text} within {@code room} characters: whole, or its longest run of whole lines that
     * leaves room for {@code marker} on a line of its own; a first line longer than that is cut
     * between characters (never inside a surrogate pair) and ends with an ellipsis.
     */
    static String cutAtLine(String text, int room, String marker) {
        if (text.length() <= room) {
            return text;
        }
        int keep = room - marker.length() - 1;
        if (keep < 2) {
            return marker.length() <= room ? marker : "";
        }
        int newline = text.lastIndexOf('\n', keep);
        String head;
        if (newline > 0) {
            head = text.substring(0, newline).stripTrailing();
        } else {
            int end = keep - 1;
            if (Character.isLowSurrogate(text.charAt(end)) && Character.isHighSurrogate(text.charAt(end - 1))) {
                end--;
            }
            head = text.substring(0, end) + "…";
        }
        return head + "\n" + marker;
    }

    /** How to use the tools, in as few words as work. */
    static String guidance(boolean allowNotes, Optional<String> slug, boolean projectsFolder) {
        StringBuilder out = new StringBuilder("## Using this memory\n\n")
                .append("- Before work that may rest on earlier decisions, conventions or fixes, look in memory:")
                .append(" search with `").append(MemoryTools.SEARCH).append("` (MEMORY.md is the handbook), then")
                .append(" open what a match points to (`skills/`, `rollout_summaries/`) with `").append(MemoryTools.READ)
                .append("`; `").append(MemoryTools.LIST).append("` shows a folder. A few searches are enough; skip")
                .append(" memory for requests that stand on their own.\n")
                .append("- Paths are relative to the memory folder.");
        if (slug.isPresent()) {
            out.append(" This session's project is `").append(ProjectKeys.FOLDER).append('/').append(slug.get())
                    .append("/`: search its MEMORY.md first, then the global one; never apply another project's")
                    .append(" memory here.");
        } else if (projectsFolder) {
            out.append(" `").append(ProjectKeys.FOLDER).append("/<name>/` holds one project's memory each: use it")
                    .append(" only for a task plainly about that project.");
        }
        out.append("\n- Memory can be out of date: say when an answer rests on it, and check what is cheap to check.\n")
                .append("- Citations are not expected: no citation block is read here. Name the memory files you")
                .append(" used in plain words.\n");
        if (allowNotes) {
            out.append("- Change memory only when the user asks: show them the note, and once they agree write one")
                    .append(" small note per change with `").append(MemoryTools.ADD_AD_HOC_NOTE).append("`.");
        } else {
            out.append("- Memory is read-only here. When the user asks to remember, forget or correct something,")
                    .append(" tell them to run `mnemo note \"...\"`.");
        }
        return out.toString();
    }

    /** The home's settings; its defaults when its config cannot be read, said on standard error. */
    private static MemoriesConfig config(Path home) {
        try {
            return HomeEngines.loadConfig(home);
        } catch (MemoryException e) {
            System.err.println("mnemo mcp: " + e.getMessage() + "; the instructions use the default settings");
            return MemoriesConfig.defaults();
        }
    }
}
