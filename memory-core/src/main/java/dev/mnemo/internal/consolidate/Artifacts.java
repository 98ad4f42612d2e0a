package dev.mnemo.internal.consolidate;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The consolidation's required outputs, and the symlink sweep after the agent ran. */
final class Artifacts {

    static final String MEMORY = "MEMORY.md";
    static final String SUMMARY = "memory_summary.md";

    private Artifacts() {}

    /** Both artifacts exist as regular files and the summary's first line is exactly {@code v1}. */
    static boolean valid(Path root) {
        Path memory = root.resolve(MEMORY);
        Path summary = root.resolve(SUMMARY);
        if (!Files.isRegularFile(memory, LinkOption.NOFOLLOW_LINKS)
                || !Files.isRegularFile(summary, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (BufferedReader reader = Files.newBufferedReader(summary, StandardCharsets.UTF_8)) {
            return "v1".equals(reader.readLine());
        } catch (IOException e) {
            return false;
        }
    }

    /** Why {@link #valid} is false, for the failure reason. */
    static String problem(Path root) {
        if (!Files.isRegularFile(root.resolve(MEMORY), LinkOption.NOFOLLOW_LINKS)) {
            return MEMORY + " is missing";
        }
        if (!Files.isRegularFile(root.resolve(SUMMARY), LinkOption.NOFOLLOW_LINKS)) {
            return SUMMARY + " is missing";
        }
        return SUMMARY + " does not start with the line v1";
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
