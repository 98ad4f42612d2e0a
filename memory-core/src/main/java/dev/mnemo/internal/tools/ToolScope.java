package dev.mnemo.internal.tools;

import dev.mnemo.ProjectKeys;
import dev.mnemo.internal.read.AdHocNoteFiles;
import dev.mnemo.internal.sandbox.ToolFailure;
import java.util.Optional;

/**
 * Which memory files one {@code memories_search} or {@code memories_list} call sees, and which come
 * first, for a session in a project (or in none).
 *
 * <p>A file belongs to a project when it lies under {@code projects/<slug>/}, or when it is a
 * rollout recap or an ad-hoc note whose header names {@code projects/<slug>/}; every other file is
 * global. With {@code "scope": "project"} a call sees the session's project and global memory only;
 * with {@code "all"} the whole folder, the session's project first. Which is the default depends on
 * the tools: {@code "all"}, or {@code "project"} for tools confined to their project, where a read
 * is refused the files this scope hides.
 */
final class ToolScope {

    static final String PROJECT = "project";
    static final String ALL = "all";
    static final String GLOBAL = "global";

    private static final String PROJECTS_PREFIX = ProjectKeys.FOLDER + "/";
    private static final String NOTES_PREFIX = String.join("/", AdHocNoteFiles.NOTES_DIR) + "/";
    private static final String RECAPS_PREFIX = "rollout_summaries/";
    /** The header line of a recap that names its project (see the Phase 2 sync). */
    static final String RECAP_PROJECT_LINE = "project: " + PROJECTS_PREFIX;

    /** Generated files that hold every project's raw memories at once. */
    private static final java.util.Set<String> MIXED_INPUTS = java.util.Set.of("raw_memories.md", "phase2_workspace_diff.md");

    private final Optional<String> sessionSlug;
    private final boolean projectOnly;

    private ToolScope(Optional<String> sessionSlug, boolean projectOnly) {
        this.sessionSlug = sessionSlug;
        this.projectOnly = projectOnly;
    }

    /** The scope of a call: its {@code scope} argument read for a session in {@code sessionSlug}. */
    static ToolScope of(Optional<String> sessionSlug, Optional<String> scope) {
        return of(sessionSlug, scope, ALL);
    }

    /**
     * The scope of a call whose {@code scope} argument, when left out, is {@code defaultScope}
     * ({@value #ALL}, or {@value #PROJECT} for tools confined to their project).
     */
    static ToolScope of(Optional<String> sessionSlug, Optional<String> scope, String defaultScope) {
        String value = scope.orElse(defaultScope);
        return switch (value) {
            case ALL -> new ToolScope(sessionSlug, false);
            case PROJECT -> new ToolScope(sessionSlug, true);
            default -> throw new ToolFailure("unknown scope `" + value + "`, expected `" + PROJECT + "` or `" + ALL + "`");
        };
    }

    /** Whether the call needs to look at files at all differently from a plain whole-folder call. */
    boolean isPlain() {
        return !projectOnly && sessionSlug.isEmpty();
    }

    /**
     * True when the call is project-only and a path (file or folder) is another project's folder or
     * inside one, or a Phase 2 input that mixes every project ({@code raw_memories.md}, the
     * workspace diff): the curated memory of this project and the global one is in the
     * {@code MEMORY.md} files and the recaps.
     */
    boolean hidesPath(String display) {
        if (!projectOnly) {
            return false;
        }
        if (MIXED_INPUTS.contains(display)) {
            return true;
        }
        if (!display.startsWith(PROJECTS_PREFIX)) {
            return false;
        }
        String rest = display.substring(PROJECTS_PREFIX.length());
        int slash = rest.indexOf('/');
        String slug = slash < 0 ? rest : rest.substring(0, slash);
        return !slug.isEmpty() && !sessionSlug.equals(Optional.of(slug));
    }

    /** True when a file, by its path and text, belongs to another project and the call is project-only. */
    boolean hidesFile(String display, String text) {
        if (!projectOnly) {
            return false;
        }
        Optional<String> project = projectOf(display, text);
        return project.isPresent() && !project.equals(sessionSlug);
    }

    /** 0 for a file of the session's project, 1 for any other: the order of results. */
    int rank(String display, String text) {
        return sessionSlug.isPresent() && projectOf(display, text).equals(sessionSlug) ? 0 : 1;
    }

    /** The project a file belongs to, by its folder or its header; empty when global. */
    static Optional<String> projectOf(String display, String text) {
        if (display.startsWith(PROJECTS_PREFIX)) {
            String rest = display.substring(PROJECTS_PREFIX.length());
            int slash = rest.indexOf('/');
            return slash <= 0 ? Optional.empty() : Optional.of(rest.substring(0, slash));
        }
        if (display.startsWith(NOTES_PREFIX)) {
            return AdHocNoteFiles.projectOf(text);
        }
        if (display.startsWith(RECAPS_PREFIX)) {
            return recapProject(text);
        }
        return Optional.empty();
    }

    /** The {@code project: projects/<slug>/} line of a recap's header (the lines before the first blank one). */
    private static Optional<String> recapProject(String text) {
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            String line = end < 0 ? text.substring(start) : text.substring(start, end);
            if (line.isBlank()) {
                break;
            }
            if (line.startsWith(RECAP_PROJECT_LINE)) {
                String slug = line.substring(RECAP_PROJECT_LINE.length()).replaceAll("/+\\s*$", "").strip();
                return slug.isEmpty() || slug.contains("/") ? Optional.empty() : Optional.of(slug);
            }
            start = end < 0 ? text.length() : end + 1;
        }
        return Optional.empty();
    }
}
