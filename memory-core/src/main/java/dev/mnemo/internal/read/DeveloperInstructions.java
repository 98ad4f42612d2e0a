package dev.mnemo.internal.read;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import dev.mnemo.llm.TokenCounter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the memory section of an agent's developer instructions from the memory folder: the
 * global {@code memory_summary.md}, the summary of the session's project
 * ({@code projects/<slug>/memory_summary.md}), the ad-hoc notes of that scope no consolidation has
 * folded in yet, and, for a session in no project, a one-line index of the projects with memory.
 *
 * <p>Scopes: a session in project P sees P's summary first and the global one after it, both within
 * {@link MemoriesConfig#summaryTokenLimit()} tokens, P's cut last (the global one is cut first, and
 * left out when P's fills the budget); it never sees another project's summary or notes. A memory
 * folder without {@code projects/} (Codex's) renders exactly as before scopes.
 *
 * <p>Every build sees the folder as it is on disk now (a consolidation, possibly in another
 * process, may have rewritten it), but it does not re-read, re-truncate and re-render unchanged
 * files on every turn: each file or folder it reads is kept while one {@code stat} proves it
 * unchanged ({@link StampedPath}: inode, size, modification and change times, with git's racy-clean
 * rule), and the rendering is kept while everything it came from is the same. A missing,
 * unreadable, non-UTF-8 or blank summary counts as none; with nothing to show, or
 * {@code use_memories = false}, the result is {@code ""}: the model is then told nothing about
 * memory. The parts are placed in Mnemo's template ({@link InstructionsTemplate}) between the
 * {@code MEMORY_SUMMARY BEGINS}/{@code ENDS} lines, after the guidance on when and how to use memory,
 * how to cite it and how to ask for a change; every sentence the model reads is in the template or
 * in its pieces ({@link InstructionPart}), none in this class.
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

    /** How a receipt names the scopes and kinds of what was injected. */
    static final String GLOBAL_SCOPE = "global";
    static final String PROJECT_SCOPE = "project:";
    static final String KIND_SUMMARY = "summary";
    static final String KIND_NOTE = "note";

    /** Tokens of pending notes shown at most, and of any one note. */
    static final int NOTES_TOKEN_LIMIT = 500;
    static final int NOTE_TOKEN_LIMIT = 150;
    /** Below this many tokens left after the project's summary, the global one is left out, not cut to a stub. */
    static final int MIN_GLOBAL_TOKENS = 64;
    /** Projects named in the index of a session in no project. */
    static final int INDEX_MAX_PROJECTS = 40;

    private static final Logger LOG = LoggerFactory.getLogger(DeveloperInstructions.class);
    /** Renderings kept (one per audience and project) before the cache is simply emptied. */
    private static final int MAX_RENDERINGS = 1_024;
    private final Path memoryRoot;
    /** How the summary cap counts tokens. */
    private final TokenCounter tokenCounter;
    private final MemoriesConfig config;
    /** The memory folder's stamp, taken once a build: it vouches for the paths found missing in it. */
    private final StampedPath.Folder root;
    private final StampedPath<FileText> globalSummary;
    private final ProjectFolders projects;
    private final PendingNotes notes;
    private final ServerPaths serverPaths;
    private final Map<String, Rendering> renderings = new ConcurrentHashMap<>();
    /** Project keys' slugs, so a turn does not hash its key again. */
    private final Map<String, String> slugs = new ConcurrentHashMap<>();

    /**
     * @param memoryRoot the memory folder (its absolute form is shown to the model)
     * @param config supplies {@code use_memories}, {@code dedicated_tools} and {@code summary_token_limit}
     */
    public DeveloperInstructions(Path memoryRoot, MemoriesConfig config) {
        this(memoryRoot, config, TokenCounter.estimate());
    }

    /** @param tokens how the summary cap counts tokens: the engine's model's counter, or the estimate */
    public DeveloperInstructions(Path memoryRoot, MemoriesConfig config, TokenCounter tokens) {
        this(memoryRoot, config, Clock.systemUTC(), tokens);
    }

    /** For tests: file times are compared with {@code wallClock} instead of the system clock. */
    DeveloperInstructions(Path memoryRoot, MemoriesConfig config, Clock wallClock) {
        this(memoryRoot, config, wallClock, TokenCounter.estimate());
    }

    private DeveloperInstructions(Path memoryRoot, MemoriesConfig config, Clock wallClock, TokenCounter tokens) {
        this.tokenCounter = Objects.requireNonNull(tokens, "tokens");
        this.memoryRoot = Objects.requireNonNull(memoryRoot, "memoryRoot").toAbsolutePath().normalize();
        this.config = Objects.requireNonNull(config, "config");
        this.root = new StampedPath.Folder(this.memoryRoot, wallClock);
        this.globalSummary = new StampedPath<>(this.memoryRoot.resolve(SUMMARY_FILE), wallClock, SummaryText::read,
                this.memoryRoot);
        this.projects = new ProjectFolders(this.memoryRoot, wallClock);
        this.notes = new PendingNotes(this.memoryRoot, wallClock);
        this.serverPaths = new ServerPaths(this.memoryRoot);
    }

    /**
     * The memory section of a session in no project for the configured audience
     * ({@code dedicated_tools}), or {@code ""} when there is nothing to inject.
     */
    public String build() {
        return build(Optional.empty(), config.dedicatedTools());
    }

    /** The memory section of a session in no project for a model handed the memory tools, or {@code ""}. */
    public String forTools() {
        return build(Optional.empty(), true);
    }

    /** The memory section of a session in {@code projectKey} (or in none) for the configured audience. */
    public String build(Optional<String> projectKey) {
        return build(projectKey, config.dedicatedTools());
    }

    /** The memory section of a session in {@code projectKey} (or in none) for a model handed the memory tools. */
    public String forTools(Optional<String> projectKey) {
        return build(projectKey, true);
    }

    private String build(Optional<String> projectKey, boolean tools) {
        return built(projectKey, tools).text();
    }

    /**
     * What a build injects: the text, and the summary and note files whose content is in it (for a
     * {@link dev.mnemo.MemoryReceipt}), worked out once per rendering.
     *
     * @param text the memory section, {@code ""} when there is nothing to inject
     * @param injected the files in it, in the order they appear; empty with an empty text
     */
    public record Built(String text, List<MemoryReceipt.InjectedFile> injected) {
        /** Nothing injected. */
        public static final Built NONE = new Built("", List.of());

        public Built {
            Objects.requireNonNull(text, "text");
            injected = List.copyOf(Objects.requireNonNull(injected, "injected"));
        }
    }

    /**
     * {@link #build(Optional)} or {@link #forTools(Optional)} ({@code tools}) with the files the
     * text injects.
     */
    public Built built(Optional<String> projectKey, boolean tools) {
        if (!config.useMemories()) {
            return Built.NONE;
        }
        // 1. The parts as they are on disk now (each one stat when unchanged; none for a path that
        //    was missing from the memory folder while the folder's own stamp is unchanged).
        Optional<String> slug = projectKey.map(this::slugOf);
        StampedPath.FolderStamp rootNow = root.stamp();
        Parts parts = new Parts(slug, SummaryText.get(globalSummary, rootNow, "global").orElse(null),
                slug.flatMap(s -> projects.summary(s, rootNow)).orElse(null), notes.forScope(slug, rootNow),
                slug.isEmpty() ? projects.slugs(rootNow) : List.of());
        if (parts.global() == null && parts.project() == null && parts.notes().isEmpty()) {
            return Built.NONE;
        }
        // 2. The rendering made from the same parts, else a new one.
        String cacheKey = (tools ? "t:" : "s:") + slug.orElse("");
        Rendering cached = renderings.get(cacheKey);
        if (cached != null && cached.parts().sameAs(parts)) {
            return cached.built();
        }
        if (renderings.size() > MAX_RENDERINGS) {
            renderings.clear();
        }
        List<MemoryReceipt.InjectedFile> injected = new ArrayList<>();
        String text = render(parts, projectKey, tools, injected);
        Built built = new Built(text, injected);
        renderings.put(cacheKey, new Rendering(parts, built));
        parts.releaseTexts(); // the rendering is what is kept; a new one reads the summaries again
        return built;
    }

    private String slugOf(String projectKey) {
        if (slugs.size() > MAX_RENDERINGS) {
            slugs.clear();
        }
        return slugs.computeIfAbsent(projectKey, ProjectKeys::slug);
    }

    /**
     * What one build is made of. Summaries and listings are compared by identity (the cached
     * values are the same instances while their files are unchanged), notes by value.
     */
    private record Parts(Optional<String> slug, FileText global, FileText project, List<AdHocNoteFiles.NoteFile> notes,
            List<String> index) {
        boolean sameAs(Parts other) {
            return global == other.global && project == other.project && index == other.index
                    && notes.equals(other.notes);
        }

        /** Lets go of the summaries' texts (see {@link FileText#release()}). */
        void releaseTexts() {
            if (global != null) {
                global.release();
            }
            if (project != null) {
                project.release();
            }
        }
    }

    private record Rendering(Parts parts, Built built) {}

    /**
     * The text between the summary markers: pending notes, then the project's summary, then the
     * global one (or, in no project, the global one and the index of projects).
     */
    private String summarySection(Parts parts, Optional<String> projectKey, boolean tools,
            List<MemoryReceipt.InjectedFile> injected) {
        StringBuilder out = new StringBuilder();
        if (!parts.notes().isEmpty()) {
            out.append(notesBlock(parts, injected)).append("\n\n");
        }
        int budget = config.summaryTokenLimit();
        if (parts.project() != null) {
            String slug = parts.slug().orElseThrow();
            String project = capped(parts.project().text(), budget, "project " + slug);
            long projectTokens = TokenTruncation.tokens(project, tokenCounter);
            injected.add(injectedFile(PROJECT_SCOPE + slug, KIND_SUMMARY, projectFolder(slug) + SUMMARY_FILE,
                    parts.project(), projectTokens, !project.equals(parts.project().text())));
            budget -= (int) Math.min(budget, projectTokens);
            out.append(tools ? InstructionPart.PROJECT_HEADING.fill("project_folder", projectFolder(slug))
                    : InstructionPart.PROJECT_HEADING_KEYED.fill("project_folder", projectFolder(slug), "project_key",
                            projectKey.orElseThrow()));
            out.append("\n\n").append(project).append("\n\n");
            if (parts.global() != null) {
                out.append(InstructionPart.GLOBAL_HEADING.fill("summary_file", SUMMARY_FILE)).append("\n\n");
                out.append(budget >= MIN_GLOBAL_TOKENS ? cappedGlobal(parts.global(), budget, injected)
                        : InstructionPart.GLOBAL_LEFT_OUT.fill());
            }
        } else if (parts.global() != null) {
            out.append(cappedGlobal(parts.global(), budget, injected));
        }
        if (!parts.index().isEmpty()) {
            out.append("\n\n").append(indexLine(parts.index()));
        }
        String section = out.toString().strip();
        return tools ? serverPaths.scrub(section) : section;
    }

    /** The global summary within {@code budget} tokens, named in {@code injected}. */
    private String cappedGlobal(FileText global, int budget, List<MemoryReceipt.InjectedFile> injected) {
        String text = capped(global.text(), budget, "global");
        injected.add(injectedFile(GLOBAL_SCOPE, KIND_SUMMARY, SUMMARY_FILE, global,
                TokenTruncation.tokens(text, tokenCounter), !text.equals(global.text())));
        return text;
    }

    private static MemoryReceipt.InjectedFile injectedFile(String scope, String kind, String path, FileText file,
            long tokens, boolean truncated) {
        return injectedFile(scope, kind, path, file.sha256(), file.bytes(), tokens, truncated);
    }

    private static MemoryReceipt.InjectedFile injectedFile(String scope, String kind, String path, String sha256,
            long bytes, long tokens, boolean truncated) {
        return new MemoryReceipt.InjectedFile(scope, kind, path, sha256, bytes, (int) Math.min(Integer.MAX_VALUE, tokens),
                truncated);
    }

    private String capped(String summary, int tokens, String which) {
        String capped = TokenTruncation.truncateMiddle(summary, tokens, tokenCounter);
        if (!capped.equals(summary)) {
            LOG.debug("The {} memory summary under {} was cut to {} tokens", which, memoryRoot, tokens);
        }
        return capped;
    }

    private static String projectFolder(String slug) {
        return ProjectKeys.FOLDER + "/" + slug + "/";
    }

    /**
     * The notes recorded at the user's request that no consolidation has folded in yet, capped,
     * framed as unverified and each made one neutralised line, so no note can close this block,
     * open another or name a scope.
     */
    private String notesBlock(Parts parts, List<MemoryReceipt.InjectedFile> injected) {
        StringBuilder out = new StringBuilder(InstructionPart.NOTES_HEADING.fill()).append('\n');
        long left = NOTES_TOKEN_LIMIT;
        int shown = 0;
        for (AdHocNoteFiles.NoteFile file : parts.notes()) {
            AdHocNoteFiles.Note note = file.note();
            String whole = AdHocNoteFiles.neutralise(note.text()).replaceAll("\\s*\\n\\s*", " ");
            String text = TokenTruncation.truncateMiddle(whole, NOTE_TOKEN_LIMIT);
            String line = (note.project().isPresent() ? InstructionPart.PROJECT_NOTE : InstructionPart.NOTE)
                    .fill("note", text) + "\n";
            long tokens = TokenTruncation.approxTokens(line);
            if (tokens > left) {
                break;
            }
            out.append(line);
            left -= tokens;
            shown++;
            injected.add(injectedFile(note.project().map(slug -> PROJECT_SCOPE + slug).orElse(GLOBAL_SCOPE), KIND_NOTE,
                    String.join("/", AdHocNoteFiles.NOTES_DIR) + "/" + note.name(), file.sha256(), file.bytes(),
                    TokenTruncation.tokens(text, tokenCounter), !text.equals(whole)));
        }
        int more = parts.notes().size() - shown;
        String folder = String.join("/", AdHocNoteFiles.NOTES_DIR);
        if (more == 1) {
            out.append(InstructionPart.NOTES_ONE_MORE.fill("folder", folder));
        } else if (more > 1) {
            out.append(InstructionPart.NOTES_MORE.fill("count", Integer.toString(more), "folder", folder));
        }
        return out.toString().strip();
    }

    /** One line naming the projects with memory, for a session in none. */
    private static String indexLine(List<String> slugs) {
        int shown = Math.min(slugs.size(), INDEX_MAX_PROJECTS);
        String more = slugs.size() == shown ? "" : InstructionPart.INDEX_MORE.fill("count",
                Integer.toString(slugs.size() - shown), "projects", ProjectKeys.FOLDER);
        return InstructionPart.INDEX.fill("projects", ProjectKeys.FOLDER, "summary_file", SUMMARY_FILE, "slugs",
                String.join(", ", slugs.subList(0, shown)), "more", more);
    }

    /** The layout line about projects: none for a folder without them and a session in none. */
    private static String scopeLayout(Parts parts, String prefix) {
        if (parts.slug().isPresent()) {
            return "\n" + InstructionPart.LAYOUT_THIS_PROJECT.fill("prefix", prefix, "project_folder",
                    projectFolder(parts.slug().get()), "projects", ProjectKeys.FOLDER);
        }
        if (!parts.index().isEmpty()) {
            return "\n" + InstructionPart.LAYOUT_PROJECTS.fill("prefix", prefix, "projects", ProjectKeys.FOLDER);
        }
        return "";
    }

    private String render(Parts parts, Optional<String> projectKey, boolean tools,
            List<MemoryReceipt.InjectedFile> injected) {
        String base = memoryRoot.toString();
        String summary = summarySection(parts, projectKey, tools, injected);
        Map<String, String> values = tools
                ? Map.of("path_prefix", "", "raw_layout", InstructionPart.TOOLS_RAW_LAYOUT.fill(),
                        "memory_summary", summary, "scope_layout", scopeLayout(parts, ""),
                        "search_how", InstructionPart.TOOLS_SEARCH_HOW.fill("search_tool", MemoryTools.SEARCH),
                        "open_how", InstructionPart.TOOLS_OPEN_HOW.fill("read_tool", MemoryTools.READ, "list_tool",
                                MemoryTools.LIST),
                        "raw_how", InstructionPart.TOOLS_RAW_HOW.fill(),
                        "note_how", InstructionPart.TOOLS_NOTE_HOW.fill("note_tool", MemoryTools.ADD_AD_HOC_NOTE))
                : Map.of("path_prefix", base + "/", "raw_layout", InstructionPart.SHELL_RAW_LAYOUT.fill(),
                        "memory_summary", summary, "scope_layout", scopeLayout(parts, base + "/"),
                        "search_how", InstructionPart.SHELL_SEARCH_HOW.fill("base", base),
                        "open_how", InstructionPart.SHELL_OPEN_HOW.fill(),
                        "raw_how", InstructionPart.SHELL_RAW_HOW.fill(),
                        "note_how", InstructionPart.SHELL_NOTE_HOW.fill("base", base));
        return InstructionsTemplate.fill(values, summary.length());
    }
}
