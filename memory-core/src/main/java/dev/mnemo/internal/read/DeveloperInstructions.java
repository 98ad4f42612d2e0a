package dev.mnemo.internal.read;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryTools;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the memory section of an agent's developer instructions from
 * {@code <memoryRoot>/memory_summary.md}.
 *
 * <p>Every {@link #build()} sees the summary as it is on disk now (a consolidation, possibly in
 * another process, may have rewritten it), but it does not re-read, re-truncate and re-render an
 * unchanged file on every turn: the rendering is kept while one {@code stat} proves the file is the
 * one it came from ({@link SummaryFile}: inode, size, modification and change times, with git's
 * racy-clean rule). Nothing else is read or parsed. A missing, unreadable, non-UTF-8 or blank summary, or
 * {@code use_memories = false}, gives {@code ""}: the model is then told nothing about memory. The
 * summary is trimmed, capped at {@link MemoriesConfig#summaryTokenLimit()} tokens by
 * {@link TokenTruncation}, and placed in Mnemo's template between the
 * {@code MEMORY_SUMMARY BEGINS}/{@code ENDS} lines, after the guidance on when and how to use memory,
 * how to cite it and how to ask for a change.
 *
 * <p>Two renderings: for a model that is handed the {@code memories_*} tools ({@link #forTools()},
 * what a {@link dev.mnemo.MemorySession} gives), every step names a tool and every path is
 * relative to the memory folder, and paths of this machine in the summary are taken out by
 * {@link ServerPaths}; for a model that reads the folder with its own shell
 * ({@link #build()} with {@code dedicated_tools = false}), steps name files by absolute path.
 */
public final class DeveloperInstructions {

    /** The file whose content is injected. */
    public static final String SUMMARY_FILE = "memory_summary.md";

    private static final Logger LOG = LoggerFactory.getLogger(DeveloperInstructions.class);
    private static final String TEMPLATE_RESOURCE = "developer_instructions.md";
    private static final Set<String> PLACEHOLDERS =
            Set.of("path_prefix", "raw_layout", "search_how", "open_how", "raw_how", "note_how", "memory_summary");
    /** Sub-bullets of the layout list (indented two spaces) for a model with a shell. */
    private static final String RAW_LOG_LAYOUT = String.join("\n",
            "  - MEMORY.md and these recaps name the `rollout_path` of each session's raw log.",
            "  - A raw log is append-only JSONL: `session_meta.payload.id` is the session id, `turn_context`",
            "    lines separate turns, `event_msg` lines are a light status stream, and `response_item` lines",
            "    hold the messages, tool calls and tool outputs.",
            "  - To find a session, match the file-name suffix or `session_meta.payload.id`; do not scan whole",
            "    logs for content.");
    /** The same place for a model with the memory tools only. */
    private static final String TOOLS_RAW_LAYOUT = String.join("\n",
            "  - Paths here are relative to the memory folder, which is how the memory tools take them. The raw",
            "    session logs that recaps name under `rollout_path` lie outside it; the tools cannot open them.");

    private final Path memoryRoot;
    private final MemoriesConfig config;
    private final SummaryFile<Rendering> summaryFile;
    private final ServerPaths serverPaths;

    /**
     * @param memoryRoot the memory folder (its absolute form is shown to the model)
     * @param config supplies {@code use_memories}, {@code dedicated_tools} and {@code summary_token_limit}
     */
    public DeveloperInstructions(Path memoryRoot, MemoriesConfig config) {
        this(memoryRoot, config, Clock.systemUTC());
    }

    /** For tests: file times are compared with {@code wallClock} instead of the system clock. */
    DeveloperInstructions(Path memoryRoot, MemoriesConfig config, Clock wallClock) {
        this.memoryRoot = Objects.requireNonNull(memoryRoot, "memoryRoot").toAbsolutePath().normalize();
        this.config = Objects.requireNonNull(config, "config");
        this.summaryFile = new SummaryFile<>(this.memoryRoot.resolve(SUMMARY_FILE), wallClock, this::prepare);
        this.serverPaths = new ServerPaths(this.memoryRoot);
    }

    /**
     * The memory section for the configured audience ({@code dedicated_tools}), or {@code ""} when
     * there is nothing to inject.
     */
    public String build() {
        return build(config.dedicatedTools());
    }

    /** The memory section for a model handed the memory tools, or {@code ""}. */
    public String forTools() {
        return build(true);
    }

    /** The memory section of a session in {@code project} (or in none) for the configured audience. */
    public String build(java.util.Optional<String> project) {
        if (project.isPresent()) {
            throw new UnsupportedOperationException("project-scoped instructions are being built (issue 29)");
        }
        return build();
    }

    /** The memory section of a session in {@code project} (or in none) for a model handed the memory tools. */
    public String forTools(java.util.Optional<String> project) {
        if (project.isPresent()) {
            throw new UnsupportedOperationException("project-scoped instructions are being built (issue 29)");
        }
        return forTools();
    }

    private String build(boolean tools) {
        if (!config.useMemories()) {
            return "";
        }
        Rendering rendering = readSummary();
        return rendering == null ? "" : rendering.text(tools);
    }

    /** The summary's renderings, or null if it is missing, unreadable, not UTF-8 or blank. */
    private Rendering readSummary() {
        Path file = memoryRoot.resolve(SUMMARY_FILE);
        try {
            // Files.readString is strict: malformed UTF-8 is a MalformedInputException, not U+FFFD.
            return summaryFile.get();
        } catch (NoSuchFileException e) {
            LOG.debug("No memory summary at {}; developer instructions carry no memory section", file);
        } catch (CharacterCodingException e) {
            LOG.warn("Memory summary {} is not valid UTF-8; developer instructions carry no memory section", file);
        } catch (IOException e) {
            LOG.warn("Cannot read memory summary {} ({}); developer instructions carry no memory section", file,
                    e.toString());
        }
        return null;
    }

    /** From the file's text: trimmed and capped once; null when blank. */
    private Rendering prepare(String text) {
        String summary = text.strip();
        if (summary.isEmpty()) {
            return null;
        }
        String capped = TokenTruncation.truncateMiddle(summary, config.summaryTokenLimit());
        if (!capped.equals(summary)) {
            LOG.debug("Memory summary {} truncated to {} tokens", memoryRoot.resolve(SUMMARY_FILE),
                    config.summaryTokenLimit());
        }
        return new Rendering(capped);
    }

    /** One summary text and its two renderings, each made on first use. */
    private final class Rendering {
        private final String summary;
        private volatile String forTools;
        private volatile String forShell;

        Rendering(String summary) {
            this.summary = summary;
        }

        String text(boolean tools) {
            String text = tools ? forTools : forShell;
            if (text == null) {
                text = render(summary, tools); // the same text whichever thread makes it first
                if (tools) {
                    forTools = text;
                } else {
                    forShell = text;
                }
            }
            return text;
        }
    }

    private String render(String summary, boolean tools) {
        String base = memoryRoot.toString();
        Map<String, String> values = tools
                ? Map.of("path_prefix", "", "raw_layout", TOOLS_RAW_LAYOUT, "memory_summary", serverPaths.scrub(summary),
                        "search_how", "Search MEMORY.md for them with the `" + MemoryTools.SEARCH
                                + "` tool (paths are relative to the memory folder).",
                        "open_how", "open the one or two most relevant files under `rollout_summaries/` or `skills/`"
                                + " with `" + MemoryTools.READ + "` (`" + MemoryTools.LIST
                                + "` shows what a folder holds).",
                        "raw_how", "If it is still unclear, search once more with other words; the raw session logs"
                                + " are out of reach, so say what is missing rather than guess.",
                        "note_how", "record one small note per change with the `" + MemoryTools.ADD_AD_HOC_NOTE
                                + "` tool; it is kept in the memory folder under `extensions/ad_hoc/notes/`.")
                : Map.of("path_prefix", base + "/", "raw_layout", RAW_LOG_LAYOUT, "memory_summary", summary,
                        "search_how", "Search " + base + "/MEMORY.md for them (a text search such as `rg`),"
                                + " rather than reading it whole.",
                        "open_how", "open the one or two most relevant files under `rollout_summaries/` or `skills/`.",
                        "raw_how", "If it is still unclear and you need exact commands, error messages or evidence,"
                                + " search the raw `rollout_path` logs those files name.",
                        "note_how", "write one small new file per change into " + base + "/extensions/ad_hoc/notes/.");
        StringBuilder out = new StringBuilder(summary.length() + 8192);
        for (Segment segment : Template.SEGMENTS) {
            out.append(segment.placeholder() ? values.get(segment.text()) : segment.text());
        }
        return out.toString();
    }

    /** The parsed template, loaded when first rendered (an engine that never renders skips it). */
    private static final class Template {
        static final List<Segment> SEGMENTS = parseTemplate(loadTemplate());
    }

    /** A piece of the template: literal text, or the name of a value inserted at render time. */
    private record Segment(String text, boolean placeholder) {}

    private static String loadTemplate() {
        try (InputStream in = DeveloperInstructions.class.getResourceAsStream(TEMPLATE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource dev/mnemo/internal/read/" + TEMPLATE_RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + TEMPLATE_RESOURCE, e);
        }
    }

    /**
     * Splits the template at its {@code {{ name }}} placeholders once, so inserted values (which may
     * themselves contain braces) are never scanned again. Every placeholder must be a known one and
     * every known one must appear.
     */
    static List<Segment> parseTemplate(String template) {
        Matcher matcher = Pattern.compile("\\{\\{\\s*([a-z_]+)\\s*}}").matcher(template);
        List<Segment> segments = new ArrayList<>();
        Set<String> seen = new TreeSet<>();
        int last = 0;
        while (matcher.find()) {
            String name = matcher.group(1);
            if (!PLACEHOLDERS.contains(name)) {
                throw new IllegalStateException("unknown placeholder {{ " + name + " }} in " + TEMPLATE_RESOURCE);
            }
            segments.add(new Segment(template.substring(last, matcher.start()), false));
            segments.add(new Segment(name, true));
            seen.add(name);
            last = matcher.end();
        }
        segments.add(new Segment(template.substring(last), false));
        if (!seen.equals(new TreeSet<>(PLACEHOLDERS))) {
            throw new IllegalStateException(TEMPLATE_RESOURCE + " uses placeholders " + seen + ", expected "
                    + new TreeSet<>(PLACEHOLDERS));
        }
        return List.copyOf(segments);
    }
}
