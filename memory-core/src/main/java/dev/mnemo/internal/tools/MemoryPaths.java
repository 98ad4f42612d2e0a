package dev.mnemo.internal.tools;

import dev.mnemo.internal.sandbox.ConfinedRoot;
import dev.mnemo.internal.sandbox.ToolFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Confines tool paths to the memory root, following Codex's {@code resolve_scoped_path}: a
 * {@code ..} or absolute path is refused ("must stay within the memories root"), a hidden component
 * (name starting with {@code .}) makes the path invisible (not found), and each existing component
 * is checked without following links, so a symlink anywhere on the way is refused ("must not be a
 * symlink"). The walk, the real-path check and the rule for a symlinked root (followed once per
 * call) are {@link ConfinedRoot}'s, shared with the consolidation agent's tools. Displayed paths
 * are relative to the root with {@code /} separators.
 */
final class MemoryPaths {

    /** Byte-wise order of UTF-8 strings, as Rust compares paths and strings. */
    static final Comparator<String> UTF8_ORDER = (a, b) ->
            Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private final ConfinedRoot confined;

    MemoryPaths(ConfinedRoot confined) {
        this.confined = confined;
    }

    /** A path inside the root: where it is on disk and how it is shown ({@code ""} for the root). */
    record Scoped(Path file, String display) {}

    /**
     * A listed child: its shown path, whether it is a directory, and its size in bytes as the
     * listing saw it (the file may have changed since).
     */
    record Child(Path file, String display, boolean directory, long size) {}

    /**
     * Resolves a requested path (absent, {@code ""} and {@code "."} mean the root). The result may
     * not exist; callers report that as not found.
     */
    Scoped resolve(Optional<String> requested) {
        Path root = confined.resolveRoot();
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
            if (!isSingleName(root, part)) {
                throw ToolFailure.invalidPath(path, "must stay within the memories root");
            }
            components.add(part);
        }
        ConfinedRoot.Walk walk = confined.walk(root, components, path);
        if (walk.link().isPresent()) {
            throw ToolFailure.invalidPath(ConfinedRoot.relative(root, walk.link().get()), "must not be a symlink");
        }
        if (walk.nonFolder().isPresent()) {
            throw ToolFailure.invalidPath(path, "traverses through a non-directory path component");
        }
        return new Scoped(walk.path(), String.join("/", components));
    }

    /** True when the platform reads {@code part} as one plain name (on Windows a backslash or {@code C:} makes it more). */
    private static boolean isSingleName(Path root, String part) {
        try {
            Path name = root.getFileSystem().getPath(part);
            return name.getNameCount() == 1 && name.getRoot() == null && name.toString().equals(part);
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** Attributes without following links; empty when nothing is there. */
    static Optional<BasicFileAttributes> attributesOf(Path file) {
        return ConfinedRoot.attributesOf(file);
    }

    /**
     * The visible children of a directory in byte-wise name order: hidden names, symlinks and
     * entries that are neither files nor directories are left out.
     */
    List<Child> children(Path directory, String display) {
        List<Child> children = new ArrayList<>();
        list(directory, display, (child, opener) -> children.add(child));
        children.sort(Comparator.comparing(child -> child.file().getFileName().toString(), UTF8_ORDER));
        return children;
    }

    /** Opens a listed file for reading. */
    @FunctionalInterface
    interface Opener {
        ReadableByteChannel open() throws IOException;
    }

    /** Receives a visible entry as it is listed, with the cheapest way to open it (when it is a file). */
    @FunctionalInterface
    interface EntryVisitor {
        void visit(Child file, Opener opener);
    }

    /**
     * Visits the visible regular files under a directory, at any depth, in no particular order:
     * exactly the files that descending through {@link #children} reaches, for callers that sort
     * only what they keep. Each folder is listed once; every entry is judged by the attributes read,
     * without following links, as it is listed, so a symlinked folder is never entered and a
     * symlinked file never visited.
     */
    void forEachFileUnder(Path directory, String display, EntryVisitor visitor) {
        forEachFileUnder(directory, display, folder -> false, visitor);
    }

    /** {@link #forEachFileUnder(Path, String, EntryVisitor)}, not descending into folders {@code skip} names. */
    void forEachFileUnder(Path directory, String display, java.util.function.Predicate<String> skip,
            EntryVisitor visitor) {
        Deque<Scoped> folders = new ArrayDeque<>();
        folders.push(new Scoped(directory, display));
        while (!folders.isEmpty()) {
            Scoped folder = folders.pop();
            list(folder.file(), folder.display(), (child, opener) -> {
                if (child.directory() && skip.test(child.display())) {
                    return;
                }
                if (child.directory()) {
                    folders.push(new Scoped(child.file(), child.display()));
                } else {
                    visitor.visit(child, opener);
                }
            });
        }
    }

    /**
     * Lists one directory's visible files and folders, unsorted. Where the platform lists through
     * an open directory ({@link SecureDirectoryStream}, as on Linux), each entry is looked at and
     * opened by its name in that directory ({@code fstatat}, {@code openat}), never again by the
     * whole path from the root: one name looked up, not every folder on the way, and no link
     * followed when opening.
     */
    private static void list(Path directory, String display, EntryVisitor sink) {
        String prefix = display.isEmpty() ? "" : display + "/";
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            Folder folder = stream instanceof SecureDirectoryStream<Path> secure ? new OpenFolder(secure) : PLAIN;
            for (Path entry : stream) {
                String name = entry.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                BasicFileAttributes attributes = folder.attributesOf(entry).orElse(null);
                if (attributes == null || attributes.isSymbolicLink()) {
                    continue;
                }
                if (attributes.isDirectory() || attributes.isRegularFile()) {
                    sink.visit(new Child(entry, prefix.concat(name), attributes.isDirectory(), attributes.size()),
                            () -> folder.open(entry));
                }
            }
        } catch (IOException e) {
            throw ToolFailure.io(e);
        }
    }

    /** How the entries of a listed directory are looked at and opened. */
    private interface Folder {
        Optional<BasicFileAttributes> attributesOf(Path entry) throws IOException;

        ReadableByteChannel open(Path entry) throws IOException;
    }

    /** By whole path. */
    private static final Folder PLAIN = new Folder() {
        @Override
        public Optional<BasicFileAttributes> attributesOf(Path entry) {
            return MemoryPaths.attributesOf(entry);
        }

        @Override
        public ReadableByteChannel open(Path entry) throws IOException {
            return FileChannel.open(entry);
        }
    };

    /** By name in the open directory. */
    private record OpenFolder(SecureDirectoryStream<Path> directory) implements Folder {
        private static final Set<OpenOption> READ_NO_LINK = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

        @Override
        public Optional<BasicFileAttributes> attributesOf(Path entry) throws IOException {
            try {
                return Optional.of(directory.getFileAttributeView(entry.getFileName(), BasicFileAttributeView.class,
                        LinkOption.NOFOLLOW_LINKS).readAttributes());
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
        }

        @Override
        public ReadableByteChannel open(Path entry) throws IOException {
            return directory.newByteChannel(entry.getFileName(), READ_NO_LINK);
        }
    }
}
