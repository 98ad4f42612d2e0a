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
    /** Where the memory tools add ad-hoc notes between consolidations (shared through {@link SharedNotes}). */
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
        return scan(root);
    }

    /** The ad-hoc notes: the memory files under {@value #NOTES}. */
    SortedMap<String, byte[]> scanNotes() throws IOException {
        Path notes = root;
        for (String segment : NOTES.split("/")) { // never through a link
            notes = notes.resolve(segment);
            if (!Files.isDirectory(notes, LinkOption.NOFOLLOW_LINKS)) {
                return new TreeMap<>();
            }
        }
        return scan(notes);
    }

    static boolean isNote(String path) {
        return path.startsWith(NOTES);
    }

    /** The memory files under {@code start} (the root or a folder in it), with paths relative to the root. */
    private SortedMap<String, byte[]> scan(Path start) throws IOException {
        SortedMap<String, byte[]> files = new TreeMap<>();
        if (!Files.isDirectory(start, LinkOption.NOFOLLOW_LINKS)) {
            return files;
        }
        Files.walkFileTree(start, new SimpleFileVisitor<>() {
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
     * Makes the local files exactly {@code files}, apart from ad-hoc notes (which the caller sorts
     * out): every other memory file is deleted, and a file is rewritten only when its bytes differ.
     */
    void materialize(Map<String, byte[]> files) throws IOException {
        createRoot();
        for (String path : scan().keySet()) {
            if (!files.containsKey(path) && !isNote(path)) {
                delete(path);
            }
        }
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            write(file.getKey(), file.getValue());
        }
    }

    /** Writes one memory file (temp file, then rename) unless it already holds {@code content}. */
    void write(String path, byte[] content) throws IOException {
        Path target = resolve(path);
        if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
                && Arrays.equals(Files.readAllBytes(target), content)) {
            return;
        }
        Files.createDirectories(target.getParent());
        if (Files.isSymbolicLink(target)) {
            Files.delete(target);
        }
        Path temp = Files.createTempFile(target.getParent(), ".mnemo-", ".tmp");
        Files.write(temp, content);
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    void delete(String path) throws IOException {
        Files.deleteIfExists(resolve(path));
    }

    /** Deletes a leftover {@value #DIFF_FILE} (a link is removed, never followed). */
    void deleteDiffFile() throws IOException {
        Files.deleteIfExists(root.resolve(DIFF_FILE));
    }

    /**
     * The memory-file path of {@code file}, which must be a memory file under the root: as
     * configured, or as its real path (the memory tools follow a linked root once and name files
     * from there).
     */
    String relativePath(Path file) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        Path base = absolute.startsWith(root) || !Files.exists(root) ? root : root.toRealPath();
        String path = absolute.startsWith(base) ? base.relativize(absolute).toString().replace('\\', '/') : "";
        if (!isMemoryFile(path)) {
            throw new IOException(file + " is not a memory file under " + root);
        }
        return path;
    }

    private Path resolve(String path) throws IOException {
        Path target = root.resolve(path).normalize();
        if (!target.startsWith(root) || !isMemoryFile(path)) {
            throw new IOException("refusing to write " + path + " outside the memory files of " + root);
        }
        return target;
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
