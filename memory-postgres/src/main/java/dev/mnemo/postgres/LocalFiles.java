package dev.mnemo.postgres;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The local copy of a tenant's memory files: scanned into a path → bytes map and rewritten from
 * one. Regular files only (links are never followed nor kept); paths are {@code /}-separated and
 * relative to the root; a path with a segment starting with {@code .} and the top-level
 * {@value #DIFF_FILE} are not memory files.
 */
final class LocalFiles {

    /** The transient diff file Phase 2 writes for the agent; never a memory file. */
    static final String DIFF_FILE = "phase2_workspace_diff.md";
    /** Notes the memory tools add between consolidations; a refresh keeps them. */
    static final String NOTES = "extensions/ad_hoc/notes/";

    private final Path root;

    LocalFiles(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    void createRoot() throws IOException {
        Files.createDirectories(root);
    }

    SortedMap<String, byte[]> scan() throws IOException {
        SortedMap<String, byte[]> files = new TreeMap<>();
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            return files;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return dir.equals(root) || !hidden(dir.getFileName().toString()) ? FileVisitResult.CONTINUE
                        : FileVisitResult.SKIP_SUBTREE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                String path = relative(file);
                if (attrs.isRegularFile() && isMemoryFile(path)) {
                    files.put(path, Files.readAllBytes(file));
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return files;
    }

    /**
     * Makes the local files exactly {@code files}: every other memory file is deleted (notes too,
     * unless {@code keepNotes}), and a file is rewritten (temp file, then rename) only when its bytes
     * differ.
     */
    void materialize(Map<String, byte[]> files, boolean keepNotes) throws IOException {
        createRoot();
        for (Map.Entry<String, byte[]> stale : scan().entrySet()) {
            String path = stale.getKey();
            if (!files.containsKey(path) && !(keepNotes && path.startsWith(NOTES))) {
                Files.deleteIfExists(root.resolve(path));
            }
        }
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path target = root.resolve(file.getKey()).normalize();
            if (!target.startsWith(root) || !isMemoryFile(file.getKey())) {
                throw new IOException("refusing to write " + file.getKey() + " outside the memory files of " + root);
            }
            if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
                    && Arrays.equals(Files.readAllBytes(target), file.getValue())) {
                continue;
            }
            Files.createDirectories(target.getParent());
            if (Files.isSymbolicLink(target)) {
                Files.delete(target);
            }
            Path temp = Files.createTempFile(target.getParent(), ".mnemo-", ".tmp");
            Files.write(temp, file.getValue());
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** Deletes everything under the root, hidden files and links included (never following a link). */
    void deleteEverything() throws IOException {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(path -> !path.equals(root)).forEach(all::add);
        }
        all.sort(Comparator.reverseOrder());
        for (Path path : all) {
            Files.deleteIfExists(path);
        }
    }

    private String relative(Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }

    private static boolean isMemoryFile(String path) {
        if (path.equals(DIFF_FILE) || path.isEmpty()) {
            return false;
        }
        for (String segment : path.split("/")) {
            if (hidden(segment) || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    private static boolean hidden(String name) {
        return name.startsWith(".");
    }
}
