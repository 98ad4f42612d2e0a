package dev.mnemo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;

/**
 * Project keys and the folder names they get in the memory folder.
 *
 * <p>A project key is any non-blank text an application chooses ({@code acme/billing},
 * {@code case-4711}); for a coding session it is derived from the working folder by
 * {@link #forDirectory}. Its memory lives in {@code projects/<slug>/} of the memory folder.
 */
public final class ProjectKeys {

    /** The folder of the memory root that holds one folder per project. */
    public static final String FOLDER = "projects";

    /** Characters of the key kept in a slug's readable part. */
    static final int READABLE_CHARS = 40;
    /** Hex digits of the key's SHA-256 in a slug: 64 bits. */
    static final int HASH_HEX_DIGITS = 16;

    private ProjectKeys() {}

    /**
     * The folder name of a project: its last path segment, lower-cased with every run of other
     * characters than {@code a-z} and {@code 0-9} made one hyphen and cut at 40 characters, then a
     * hyphen and 16 hex digits of the key's SHA-256, e.g. {@code billing-3f2a9c1d0e4b5a6c} for
     * {@code /home/ana/src/billing}. So it is safe as one path segment on every file system, reads
     * as the project, and two keys share a slug only on a 64-bit hash collision: two repositories
     * named {@code billing} in different folders get different slugs.
     *
     * @param projectKey the project key; leading and trailing white space is ignored
     * @return the slug
     * @throws NullPointerException when {@code projectKey} is null
     * @throws IllegalArgumentException when it is blank
     */
    public static String slug(String projectKey) {
        String key = requireValid(Objects.requireNonNull(projectKey, "projectKey"));
        return readablePart(key) + "-" + hash(key);
    }

    /**
     * The project key of a working folder: the root of the git repository it is in, where every
     * linked worktree gives the key of its main repository (so worktrees share memory) and a
     * submodule its own; else the folder itself. The key is the folder's absolute, normalised path
     * (symbolic links resolved where the folder exists), so it is stable across sessions.
     *
     * @param cwd the working folder; a relative one is resolved against the current folder
     * @return the project key
     * @throws NullPointerException when {@code cwd} is null
     */
    public static String forDirectory(Path cwd) {
        Path folder = canonical(Objects.requireNonNull(cwd, "cwd"));
        for (Path dir = folder; dir != null; dir = dir.getParent()) {
            Path dotGit = dir.resolve(".git");
            if (Files.isDirectory(dotGit)) {
                return dir.toString();
            }
            if (Files.isRegularFile(dotGit, LinkOption.NOFOLLOW_LINKS)) {
                return worktreeMain(dir, dotGit).toString();
            }
        }
        return folder.toString();
    }

    /** The key, stripped; blank keys are refused. */
    static String requireValid(String projectKey) {
        String key = projectKey.strip();
        if (key.isEmpty()) {
            throw new IllegalArgumentException("project key must not be blank");
        }
        return key;
    }

    /**
     * For a {@code .git} file ({@code gitdir: <dir>}): a linked worktree's git dir holds a
     * {@code commondir} file naming the main repository's git dir, whose parent is the main
     * worktree (or, for a bare repository, the git dir itself). Without one (a submodule) or when
     * anything cannot be read, the folder holding the {@code .git} file.
     */
    private static Path worktreeMain(Path dir, Path dotGit) {
        try {
            String pointer = Files.readString(dotGit, StandardCharsets.UTF_8).strip();
            if (!pointer.startsWith("gitdir:")) {
                return dir;
            }
            Path gitDir = dir.resolve(pointer.substring("gitdir:".length()).strip()).normalize();
            Path commonFile = gitDir.resolve("commondir");
            if (!Files.isRegularFile(commonFile)) {
                return dir;
            }
            Path common = canonical(gitDir.resolve(Files.readString(commonFile, StandardCharsets.UTF_8).strip()));
            Path name = common.getFileName();
            return name != null && name.toString().equals(".git") && common.getParent() != null
                    ? common.getParent() : common;
        } catch (IOException | RuntimeException e) {
            return dir;
        }
    }

    private static Path canonical(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        try {
            return absolute.toRealPath();
        } catch (IOException e) {
            return absolute;
        }
    }

    private static String readablePart(String key) {
        String trimmed = key.replaceAll("[/\\\\:]+$", "");
        int cut = Math.max(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')), trimmed.lastIndexOf(':'));
        String last = trimmed.substring(cut + 1).toLowerCase(Locale.ROOT);
        String readable = last.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (readable.length() > READABLE_CHARS) {
            readable = readable.substring(0, READABLE_CHARS).replaceAll("-+$", "");
        }
        return readable.isEmpty() ? "project" : readable;
    }

    private static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, HASH_HEX_DIGITS / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
