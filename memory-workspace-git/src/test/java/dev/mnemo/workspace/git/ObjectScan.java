package dev.mnemo.workspace.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.eclipse.jgit.internal.storage.file.PackIndex;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Reads every object stored in a repository, reachable or not: each loose object file and each
 * entry of every pack index, inflated (and delta-resolved) through JGit. Every other file under
 * the git folder is searched as raw bytes too.
 */
final class ObjectScan {

    private ObjectScan() {}

    /** Where {@code text} occurs: {@code object <id>} or {@code file <path>}; empty when nowhere. */
    static List<String> findsText(Path gitDir, String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        List<String> hits = new ArrayList<>();
        Set<ObjectId> ids = new LinkedHashSet<>();
        int packs = 0;
        int indexes = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(gitDir)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path file : files) {
            String relative = gitDir.relativize(file).toString().replace('\\', '/');
            if (relative.matches("objects/[0-9a-f]{2}/[0-9a-f]{38}")) {
                ids.add(ObjectId.fromString(relative.substring(8, 10) + relative.substring(11)));
            } else if (relative.endsWith(".idx")) {
                indexes++;
                for (PackIndex.MutableEntry entry : PackIndex.open(file.toFile())) {
                    ids.add(entry.toObjectId());
                }
            } else if (relative.endsWith(".pack")) {
                packs++;
            }
            if (contains(Files.readAllBytes(file), needle)) {
                hits.add("file " + relative);
            }
        }
        if (packs != indexes) {
            hits.add("a pack without an index: " + packs + " packs, " + indexes + " indexes");
        }
        try (Repository repo = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
                ObjectReader reader = repo.newObjectReader()) {
            for (ObjectId id : ids) {
                if (contains(reader.open(id).getCachedBytes(Integer.MAX_VALUE), needle)) {
                    hits.add("object " + id.name());
                }
            }
        }
        if (ids.isEmpty()) {
            hits.add("no objects at all in " + gitDir);
        }
        return hits;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
