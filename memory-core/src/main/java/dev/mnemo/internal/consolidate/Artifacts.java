package dev.mnemo.internal.consolidate;

import dev.mnemo.ProjectKeys;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The consolidation's required outputs, and the symlink sweep after the agent ran. The global pair
 * ({@code MEMORY.md}, {@code memory_summary.md}) must exist; each project folder the agent keeps
 * ({@code projects/<slug>/}) must hold the same pair, checked the same way, and nothing but folders
 * may sit directly in {@code projects/}.
 */
final class Artifacts {

    static final String MEMORY = "MEMORY.md";
    static final String SUMMARY = "memory_summary.md";

    private Artifacts() {}

    /** Every required artifact exists as a regular file and every summary's first line is exactly {@code v1}. */
    static boolean valid(Path root) {
        return problem(root) == null;
    }

    /** Why {@link #valid} is false, for the failure reason; null when it is true. */
    static String problem(Path root) {
        String global = pairProblem(root, "");
        if (global != null) {
            return global;
        }
        Path projects = root.resolve(ProjectKeys.FOLDER);
        if (!Files.isDirectory(projects, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (Stream<Path> entries = Files.list(projects)) {
            for (Path entry : entries.sorted().toList()) {
                String display = ProjectKeys.FOLDER + "/" + entry.getFileName() + "/";
                if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    return display.substring(0, display.length() - 1) + " is not a project folder";
                }
                String problem = pairProblem(entry, display);
                if (problem != null) {
                    return problem;
                }
            }
        } catch (IOException e) {
            return ProjectKeys.FOLDER + "/ cannot be read: " + e.getMessage();
        }
        return null;
    }

    /** The problem with one folder's pair, named with {@code display} before each file; null when fine. */
    private static String pairProblem(Path folder, String display) {
        if (!Files.isRegularFile(folder.resolve(MEMORY), LinkOption.NOFOLLOW_LINKS)) {
            return display + MEMORY + " is missing";
        }
        Path summary = folder.resolve(SUMMARY);
        if (!Files.isRegularFile(summary, LinkOption.NOFOLLOW_LINKS)) {
            return display + SUMMARY + " is missing";
        }
        try (BufferedReader reader = Files.newBufferedReader(summary, StandardCharsets.UTF_8)) {
            return "v1".equals(reader.readLine()) ? null : display + SUMMARY + " does not start with the line v1";
        } catch (IOException e) {
            return display + SUMMARY + " cannot be read as UTF-8";
        }
    }

    /**
     * Deletes every symbolic link under the root (never following one; {@code .git} is left to the
     * workspace), so nothing written can point outside the memory folder.
     *
     * @return the links removed, relative to the root
     */
    static List<String> removeSymlinks(Path root) throws IOException {
        List<Path> links = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) { // walk does not follow links by default
            walk.filter(p -> !p.equals(root))
                    .filter(p -> !root.relativize(p).startsWith(".git"))
                    .filter(Files::isSymbolicLink)
                    .forEach(links::add);
        }
        List<String> removed = new ArrayList<>();
        for (Path link : links) {
            Files.deleteIfExists(link);
            removed.add(root.relativize(link).toString());
        }
        return removed;
    }
}
