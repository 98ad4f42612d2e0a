package dev.mnemo.internal.consolidate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * The memory folder's files by path (relative, {@code /}-separated, {@code .git} left out), each
 * with a checksum of its bytes: what the consolidation agent changed is the paths whose checksum
 * differs between two fingerprints. Read from the folder alone, so counting changes never asks the
 * workspace anything (a fleet workspace's {@code diff()} refreshes its copy from the database).
 */
record FolderFingerprint(Map<String, Long> checksums) {

    FolderFingerprint {
        checksums = Map.copyOf(Objects.requireNonNull(checksums, "checksums"));
    }

    /** The regular files under {@code root} now; symbolic links are not followed. */
    static FolderFingerprint of(Path root) throws IOException {
        Map<String, Long> checksums = new TreeMap<>();
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            return new FolderFingerprint(checksums);
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : (Iterable<Path>) walk::iterator) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                if (relative.equals(".git") || relative.startsWith(".git/")
                        || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                CRC32 crc = new CRC32();
                crc.update(Files.readAllBytes(file));
                checksums.put(relative, crc.getValue());
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new FolderFingerprint(checksums);
    }

    /** The paths added, removed or changed in {@code later} against this fingerprint. */
    Set<String> changedIn(FolderFingerprint later) {
        Set<String> changed = new HashSet<>();
        later.checksums.forEach((path, sum) -> {
            if (!sum.equals(checksums.get(path))) {
                changed.add(path);
            }
        });
        checksums.keySet().stream().filter(path -> !later.checksums.containsKey(path)).forEach(changed::add);
        return changed;
    }
}
