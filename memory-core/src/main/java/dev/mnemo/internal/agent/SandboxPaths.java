package dev.mnemo.internal.agent;

import dev.mnemo.internal.sandbox.ConfinedRoot;
import dev.mnemo.internal.sandbox.ToolFailure;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Turns a path the model wrote into a file inside the memory folder, or refuses it.
 *
 * <p>A path is relative, uses {@code /}, has no {@code ..} segment and no hidden segment (one that
 * starts with {@code .}, which keeps {@code .git} and our own temporary files out of reach), and
 * no existing segment of it may be a symbolic link. What exists of it must also resolve, by real
 * path, inside the folder. The walk and the real-path check are {@link ConfinedRoot}'s, shared with
 * the memory tools; the memory root itself may be a link, followed once when the agent starts.
 */
final class SandboxPaths {

    /** The diff the consolidator writes for the agent: it may read it, never change it. */
    static final String READ_ONLY_FILE = "phase2_workspace_diff.md";

    /** Longest path text accepted, in characters. */
    static final int MAX_PATH_CHARS = 1024;

    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    private final ConfinedRoot confined;
    private final Path root;

    /**
     * @param memoryRoot an existing folder, possibly a symbolic link: its real path, resolved here
     *     once for the agent's run, becomes the root every path is checked against
     * @throws IOException when the folder cannot be resolved
     */
    SandboxPaths(Path memoryRoot) throws IOException {
        this.confined = new ConfinedRoot(memoryRoot);
        this.root = Objects.requireNonNull(memoryRoot, "memoryRoot").toRealPath();
        if (!Files.isDirectory(root, NOFOLLOW)) {
            throw new IOException("memory root " + memoryRoot + " is not a folder");
        }
    }

    Path root() {
        return root;
    }

    /** A file or folder inside the root, never the root itself. */
    Path resolve(String raw) {
        Path path = resolveAllowingRoot(raw);
        if (path.equals(root)) {
            throw new ToolFailure("path '" + raw + "' names the memory folder itself; name a file or folder inside it");
        }
        return path;
    }

    /** Like {@link #resolve} but {@code "."} (the root) is accepted; for listing and searching. */
    Path resolveAllowingRoot(String raw) {
        List<String> segments = segments(raw);
        Path path = root;
        try {
            for (String segment : segments) {
                path = path.resolve(segment);
            }
        } catch (InvalidPathException e) {
            throw new ToolFailure("path '" + raw + "' is not a valid file name here: " + e.getReason());
        }
        refuseLinksAndEscapes(raw, segments);
        return path;
    }

    /** Like {@link #resolve}, and also refuses the read-only diff file; for every tool that changes files. */
    Path resolveWritable(String raw) {
        Path path = resolve(raw);
        if (relative(path).equals(READ_ONLY_FILE)) {
            throw new ToolFailure("'" + READ_ONLY_FILE + "' is read-only: it describes what changed and must not be edited,"
                    + " moved or deleted");
        }
        return path;
    }

    /** The path as the model should see it: relative to the root, {@code /}-separated, {@code .} for the root. */
    String relative(Path path) {
        String relative = ConfinedRoot.relative(root, path);
        return relative.isEmpty() ? "." : relative;
    }

    /**
     * Creates the missing folders between the root and {@code target}, one at a time, checking
     * that none of them is, or has become, a link or a file.
     */
    void createParents(Path target) throws IOException {
        Path parent = target.getParent();
        Path current = root;
        for (Path part : root.relativize(parent)) {
            if (part.toString().isEmpty()) {
                continue;
            }
            current = current.resolve(part.toString());
            if (!Files.exists(current, NOFOLLOW)) {
                try {
                    Files.createDirectory(current);
                } catch (FileAlreadyExistsException raced) {
                    // someone made it in between; the checks below decide whether it is usable
                }
            }
            if (Files.isSymbolicLink(current)) {
                throw new ToolFailure("'" + relative(current) + "' is a symbolic link; links are never followed");
            }
            if (!Files.isDirectory(current, NOFOLLOW)) {
                throw new ToolFailure("'" + relative(current) + "' is a file, not a folder, so '" + relative(target)
                        + "' cannot be created under it");
            }
        }
    }

    private static List<String> segments(String raw) {
        if (raw == null) {
            throw new ToolFailure("a path is required");
        }
        if (raw.isEmpty()) {
            throw new ToolFailure("path must not be empty; use '.' for the memory folder itself");
        }
        if (raw.length() > MAX_PATH_CHARS) {
            throw new ToolFailure("path is " + raw.length() + " characters long; the most allowed is " + MAX_PATH_CHARS);
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new ToolFailure("path '" + printable(raw) + "' contains a control character");
            }
            if (c == '\\') {
                throw new ToolFailure("path '" + raw + "' contains '\\'; separate folders with '/'");
            }
        }
        if (raw.startsWith("/") || raw.startsWith("~") || raw.matches("^[A-Za-z]:.*")) {
            throw new ToolFailure("path '" + raw + "' is absolute or home-relative; paths must be relative to the memory folder");
        }
        List<String> segments = new ArrayList<>();
        for (String segment : raw.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                throw new ToolFailure("path '" + raw + "' must stay within the memory folder: '..' is not allowed");
            }
            if (segment.startsWith(".")) {
                throw new ToolFailure("path '" + raw + "' names the hidden entry '" + segment
                        + "'; hidden files and folders are out of reach");
            }
            segments.add(segment);
        }
        return segments;
    }

    /** The shared walk: a link anywhere stops it, and what exists must really be inside. */
    private void refuseLinksAndEscapes(String raw, List<String> segments) {
        ConfinedRoot.Walk walk = confined.walk(root, segments, raw);
        if (walk.link().isPresent()) {
            throw new ToolFailure("path '" + raw + "' goes through the symbolic link '" + relative(walk.link().get())
                    + "'; links are never followed");
        }
    }

    private static String printable(String raw) {
        StringBuilder out = new StringBuilder();
        raw.codePoints().forEach(c -> {
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
