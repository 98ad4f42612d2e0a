package dev.mnemo.cli;

import dev.mnemo.ProjectKeys;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The {@code --project DIR|KEY} option of {@code mnemo instructions} and {@code mnemo mcp}: an
 * existing folder stands for the project of its repository ({@link ProjectKeys#forDirectory}: the
 * git root, where every worktree gives its main repository's key, else the folder itself), any
 * other text is the project key as an application would name it ({@code acme/billing}).
 */
final class ProjectOption {

    /** The option's help text, the same for every command that takes it. */
    static final String DESCRIPTION = "The project whose memory to include beside the global memory: a folder"
            + " (its git repository; worktrees share their main repository's project) or a project key as an"
            + " application names it.";

    private ProjectOption() {}

    /**
     * The project key {@code dirOrKey} names.
     *
     * @throws MnemoCli.UsageProblem when it is blank
     */
    static String key(String dirOrKey) {
        if (dirOrKey.isBlank()) {
            throw new MnemoCli.UsageProblem("--project must name a folder or a project key, was blank");
        }
        try {
            Path folder = Path.of(dirOrKey);
            if (Files.isDirectory(folder)) {
                return ProjectKeys.forDirectory(folder);
            }
        } catch (InvalidPathException notAPath) {
            // a key such as one with characters no path may hold
        }
        return dirOrKey.strip();
    }

    /**
     * The project of {@code --project-from-cwd}: the git repository around {@code cwd}, where every
     * worktree gives its main repository's key ({@link ProjectKeys#forDirectory}); outside any
     * repository, {@code cwd} itself.
     */
    static String ofWorkingDirectory(Path cwd) {
        return ProjectKeys.forDirectory(cwd);
    }
}
