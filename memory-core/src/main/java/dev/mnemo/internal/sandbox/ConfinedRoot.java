package dev.mnemo.internal.sandbox;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The memory folder as a confinement boundary. The rule, the same for every tool:
 *
 * <ul>
 *   <li>The memory root itself may be a symbolic link: {@link #resolveRoot()} follows it, once, at
 *       the start of each use (a tool call, an agent run), and everything after works from that
 *       real path.
 *   <li>Nothing inside may lead out: {@link #walk} goes down the requested names without following
 *       links and stops at the first link or non-folder on the way, and the deepest existing part
 *       must, by real path, still be inside the real root.
 * </ul>
 *
 * How a refused path is worded is the caller's choice (the memory tools keep Codex's wording, the
 * agent's tools their own); what is refused is decided here.
 */
public final class ConfinedRoot {

    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    private final Path configured;

    /** @param memoryRoot the memory folder as configured; it need not exist yet */
    public ConfinedRoot(Path memoryRoot) {
        this.configured = Objects.requireNonNull(memoryRoot, "memoryRoot").toAbsolutePath().normalize();
    }

    /**
     * The root to confine to now: its real path when it exists (a symlinked root is followed here,
     * the only link ever followed), else the configured path.
     *
     * @throws ToolFailure when the root exists but cannot be resolved
     */
    public Path resolveRoot() {
        try {
            return configured.toRealPath();
        } catch (NoSuchFileException e) {
            return configured;
        } catch (IOException e) {
            throw ToolFailure.io(e);
        }
    }

    /**
     * Where a walk from the root went.
     *
     * @param path the full requested path (root plus every segment), whether it exists or not
     * @param link the first existing part that is a symbolic link, if any; the walk stopped there
     * @param nonFolder the first existing part before the last that is not a folder, if any
     */
    public record Walk(Path path, Optional<Path> link, Optional<Path> nonFolder) {
        /** True when the walk met neither a link nor a file where a folder was needed. */
        public boolean clear() {
            return link.isEmpty() && nonFolder.isEmpty();
        }
    }

    /**
     * Walks {@code segments} (plain names, already checked by the caller) down from {@code root}
     * without following links, then checks by real path that the deepest existing part is inside
     * {@code root}.
     *
     * @param root a path from {@link #resolveRoot()}
     * @param shown the path as the model wrote it, for the refusal message
     * @throws ToolFailure when the existing part resolves outside the root
     */
    public Walk walk(Path root, List<String> segments, String shown) {
        Path full = root;
        for (String segment : segments) {
            full = full.resolve(segment);
        }
        Path current = root;
        Path deepest = root;
        for (int i = 0; i < segments.size(); i++) {
            current = current.resolve(segments.get(i));
            Optional<BasicFileAttributes> attributes = attributesOf(current);
            if (attributes.isEmpty()) {
                break;
            }
            if (attributes.get().isSymbolicLink()) {
                return new Walk(full, Optional.of(current), Optional.empty());
            }
            if (i < segments.size() - 1 && !attributes.get().isDirectory()) {
                requireInside(root, deepest, shown);
                return new Walk(full, Optional.empty(), Optional.of(current));
            }
            deepest = current;
        }
        requireInside(root, deepest, shown);
        return new Walk(full, Optional.empty(), Optional.empty());
    }

    /** {@code path} relative to {@code root}, {@code /}-separated; {@code ""} for the root itself. */
    public static String relative(Path root, Path path) {
        StringBuilder text = new StringBuilder();
        for (Path part : root.relativize(path)) {
            if (part.toString().isEmpty()) {
                continue;
            }
            if (text.length() > 0) {
                text.append('/');
            }
            text.append(part);
        }
        return text.toString();
    }

    /** The file's attributes, without following a link; empty when nothing is there. */
    public static Optional<BasicFileAttributes> attributesOf(Path file) {
        try {
            return Optional.of(Files.readAttributes(file, BasicFileAttributes.class, NOFOLLOW));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw ToolFailure.io(e);
        }
    }

    /**
     * An I/O error in words a model may see: what went wrong, never a path (an exception's message
     * usually holds absolute paths, which may lie outside the memory folder).
     */
    public static String describe(IOException e) {
        String kind;
        if (e instanceof NoSuchFileException) {
            kind = "no such file or folder";
        } else if (e instanceof AccessDeniedException) {
            kind = "access denied";
        } else if (e instanceof FileAlreadyExistsException) {
            kind = "already exists";
        } else if (e instanceof DirectoryNotEmptyException) {
            kind = "folder not empty";
        } else if (e instanceof NotDirectoryException) {
            kind = "not a folder";
        } else {
            kind = e.getClass().getSimpleName();
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null && !fs.getReason().contains("/")
                && !fs.getReason().contains("\\")) {
            return kind + " (" + fs.getReason() + ")";
        }
        return kind;
    }

    private static void requireInside(Path root, Path deepestExisting, String shown) {
        if (deepestExisting.equals(root)) {
            return; // the root is the reference (already real when it exists)
        }
        Path real;
        try {
            real = deepestExisting.toRealPath();
        } catch (IOException e) {
            throw new ToolFailure("path '" + shown + "' cannot be resolved: " + describe(e));
        }
        if (!real.startsWith(root)) {
            throw new ToolFailure("path '" + shown + "' resolves outside the memory folder");
        }
    }
}
