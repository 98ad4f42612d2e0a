package dev.mnemo.testkit;

import dev.mnemo.ProjectKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A memory folder planted as consolidation writes one with projects: the global
 * {@code memory_summary.md}, and per project a {@code projects/<slug>/memory_summary.md} and
 * {@code MEMORY.md}, each holding one fact. With facts that conflict between projects
 * ({@link #PNPM_FACT}, {@link #NPM_FACT}), a test sees which project's memory reached a model, and
 * that the other's never did.
 *
 * <pre>{@code
 * ProjectMemories.plant(home, "acme/web", "acme/api");   // acme/web uses pnpm, acme/api npm
 * ... a session in acme/web ...
 * assertThat(systemText).contains(ProjectMemories.PNPM_FACT, ProjectMemories.GLOBAL_FACT)
 *         .doesNotContain(ProjectMemories.NPM_FACT);
 * }</pre>
 */
public final class ProjectMemories {

    /** The fact of the global summary: the user, in every project. */
    public static final String GLOBAL_FACT = "The user writes commit messages in the imperative.";
    /** The fact of the first project {@link #plant} plants. */
    public static final String PNPM_FACT = "This repository installs dependencies with pnpm.";
    /** The fact of the second project {@link #plant} plants, in conflict with {@link #PNPM_FACT}. */
    public static final String NPM_FACT = "This repository installs dependencies with npm.";

    private ProjectMemories() {}

    /**
     * Plants the global summary and two projects in the memory folder of {@code home}: the first
     * project's memory says {@link #PNPM_FACT}, the second's {@link #NPM_FACT}.
     *
     * @param home the Mnemo home to plant in; folders are created as needed
     * @param pnpmProject the key of the first project, whose memory says {@link #PNPM_FACT}
     * @param npmProject the key of the second project, whose memory says {@link #NPM_FACT}
     * @return the memory folder, {@code home/memories}
     */
    public static Path plant(Path home, String pnpmProject, String npmProject) {
        Path memoryRoot = global(home, GLOBAL_FACT);
        project(memoryRoot, pnpmProject, PNPM_FACT);
        project(memoryRoot, npmProject, NPM_FACT);
        return memoryRoot;
    }

    /**
     * Plants the global summary of {@code home}, holding {@code fact}.
     *
     * @param home the Mnemo home to plant in; folders are created as needed
     * @param fact the one line of the summary, after {@code v1}
     * @return the memory folder, {@code home/memories}
     */
    public static Path global(Path home, String fact) {
        Path memoryRoot = home.resolve("memories");
        write(memoryRoot.resolve("memory_summary.md"), "v1\n" + fact + "\n");
        return memoryRoot;
    }

    /**
     * Plants one project's summary and handbook in {@code memoryRoot}, each holding {@code fact}.
     *
     * @param memoryRoot the memory folder, {@code home/memories}
     * @param projectKey the project's key; its slug names the project's folder
     * @param fact the line both files hold
     */
    public static void project(Path memoryRoot, String projectKey, String fact) {
        Path folder = memoryRoot.resolve(ProjectKeys.FOLDER).resolve(ProjectKeys.slug(projectKey));
        write(folder.resolve("memory_summary.md"), "v1\n" + fact + "\n");
        write(folder.resolve("MEMORY.md"), "# Task Group: dependencies\n\n- " + fact + "\n");
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
