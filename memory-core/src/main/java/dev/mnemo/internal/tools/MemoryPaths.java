package dev.mnemo.internal.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Confines tool paths to the memory root, following Codex's {@code resolve_scoped_path}: a
 * {@code ..} or absolute path is refused ("must stay within the memories root"), a hidden component
 * (name starting with {@code .}) makes the path invisible (not found), and each existing component
 * is checked without following links, so a symlink anywhere on the way is refused ("must not be a
 * symlink"). Displayed paths are relative to the root with {@code /} separators.
 */
final class MemoryPaths {

    /** Byte-wise order of UTF-8 strings, as Rust compares paths and strings. */
    static final Comparator<String> UTF8_ORDER = (a, b) ->
            Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private final Path root;

    MemoryPaths(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    /** A path inside the root: where it is on disk and how it is shown ({@code ""} for the root). */
    record Scoped(Path file, String display) {}

    /** A listed child: its shown path and whether it is a directory. */
    record Child(Path file, String display, boolean directory) {}

    /**
     * Resolves a requested path (absent, {@code ""} and {@code "."} mean the root). The result may
     * not exist; callers report that as not found.
     */
    Scoped resolve(Optional<String> requested) {
        if (requested.isEmpty()) {
            return new Scoped(root, "");
        }
        String path = requested.get();
        if (path.indexOf('\0') >= 0) {
            throw ToolFailure.invalidPath(path, "must not contain a NUL character");
        }
        if (path.startsWith("/")) {
            throw ToolFailure.invalidPath(path, "must stay within the memories root");
        }
        List<String> components = new ArrayList<>();
        for (String part : path.split("/", -1)) {
            if (part.isEmpty() || part.equals(".")) {
                continue; // empty segments and "." stay where they are
            }
            if (part.equals("..")) {
                throw ToolFailure.invalidPath(path, "must stay within the memories root");
            }
            if (part.startsWith(".")) {
                throw ToolFailure.notFound(path); // hidden entries are invisible, not forbidden
            }
            if (!isSingleName(part)) {
                throw ToolFailure.invalidPath(path, "must stay within the memories root");
            }
            components.add(part);
        }
        Path current = root;
        List<String> walked = new ArrayList<>();
        for (int i = 0; i < components.size(); i++) {
            current = current.resolve(components.get(i));
            walked.add(components.get(i));
            Optional<BasicFileAttributes> attributes = attributesOf(current);
            if (attributes.isEmpty()) {
                for (String rest : components.subList(i + 1, components.size())) {
                    current = current.resolve(rest);
                }
                break;
            }
            if (attributes.get().isSymbolicLink()) {
                throw ToolFailure.invalidPath(String.join("/", walked), "must not be a symlink");
            }
            if (i < components.size() - 1 && !attributes.get().isDirectory()) {
                throw ToolFailure.invalidPath(path, "traverses through a non-directory path component");
            }
        }
        return new Scoped(current, String.join("/", components));
    }

    /** True when the platform reads {@code part} as one plain name (on Windows a backslash or {@code C:} makes it more). */
    private boolean isSingleName(String part) {
        try {
            Path name = root.getFileSystem().getPath(part);
            return name.getNameCount() == 1 && name.getRoot() == null && name.toString().equals(part);
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** Attributes without following links; empty when nothing is there. */
    static Optional<BasicFileAttributes> attributesOf(Path file) {
        try {
            return Optional.of(Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw ToolFailure.io(e);
        }
    }

    /**
     * The visible children of a directory in byte-wise name order: hidden names, symlinks and
     * entries that are neither files nor directories are left out.
     */
    List<Child> children(Path directory, String display) {
        List<Child> children = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path entry : stream) {
                String name = entry.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                Optional<BasicFileAttributes> attributes = attributesOf(entry);
                if (attributes.isEmpty() || attributes.get().isSymbolicLink()) {
                    continue;
                }
                boolean isDirectory = attributes.get().isDirectory();
                if (isDirectory || attributes.get().isRegularFile()) {
                    children.add(new Child(entry, display.isEmpty() ? name : display + "/" + name, isDirectory));
                }
            }
        } catch (IOException e) {
            throw ToolFailure.io(e);
        }
        children.sort(Comparator.comparing(child -> child.file().getFileName().toString(), UTF8_ORDER));
        return children;
    }
}
