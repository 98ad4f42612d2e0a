package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Phase2Outcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.internal.storage.file.ObjectDirectory;
import org.eclipse.jgit.internal.storage.file.Pack;
import org.eclipse.jgit.internal.storage.file.PackIndex;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC "Forgetting is real": once the next consolidation has run and the engine is closed, a
 * polluted or deleted thread's text is in no file under the home — workspace, git objects
 * (reachable or not), the SQLite file and its WAL.
 */
class ForgettingTest {

    private static final String SECRET_FACT = "PURPLE-OTTER-7731 is the staging codename";

    @TempDir
    Path home;

    @Test
    void pollutedThreadIsGoneFromEveryFileAfterTheNextConsolidation() throws Exception {
        forget(true);
    }

    @Test
    void deletedThreadIsGoneFromEveryFileAfterTheNextConsolidation_rolloutIncluded() throws Exception {
        forget(false);
    }

    private void forget(boolean pollute) throws Exception {
        String keeper;
        String forgotten;
        try (Pipeline p = new Pipeline(home)) {
            p.model.extraction = request -> ScriptedModel.extractionInput(request).contains("codename")
                    ? ScriptedModel.reply("- remember " + SECRET_FACT, "# " + SECRET_FACT, "codename")
                    : ScriptedModel.reply("- builds use gradle", "# build notes", "build");
            keeper = p.recordSession("how do we build", "thanks");
            forgotten = p.recordSession("hello", "note that " + SECRET_FACT);
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(filesContaining(home, SECRET_FACT)).isNotEmpty(); // the test can see it while it is there

            if (pollute) {
                assertThat(p.engine.threads().markPolluted(forgotten)).isTrue();
            } else {
                p.engine.threads().delete(forgotten);
            }
            p.clock.advance(Duration.ofHours(7)); // past the cooldown of the last success
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.admin().history()).allSatisfy(c -> assertThat(c.threadIds()).doesNotContain(forgotten));
        }
        List<String> found = filesContaining(home, SECRET_FACT);
        if (pollute) {
            // The polluted session's own transcript and its lines in the message history stay: they
            // are the user's record, not memory (deleting the thread removes both).
            assertThat(found).allMatch(f -> f.startsWith("sessions/") || f.equals("history.jsonl"),
                    "only the transcript and the message history: " + found);
        } else {
            assertThat(found).isEmpty();
        }
        assertThat(gitObjectsContaining(home.resolve("memories"), SECRET_FACT)).isEmpty();
        assertThat(Files.readString(home.resolve("memories/MEMORY.md"))).contains(keeper);
    }

    /** Files under {@code root} whose raw bytes contain {@code text}. */
    static List<String> filesContaining(Path root, String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        List<String> hits = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (indexOf(Files.readAllBytes(file), needle) >= 0) {
                    hits.add(root.relativize(file).toString());
                }
            }
        }
        return hits;
    }

    /** Every object in the repository, loose or packed, reachable or not, inflated and searched. */
    static List<String> gitObjectsContaining(Path memoryRoot, String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        List<String> hits = new ArrayList<>();
        try (FileRepository repo = new FileRepository(memoryRoot.resolve(".git").toFile());
                ObjectReader reader = repo.newObjectReader()) {
            ObjectDirectory objects = repo.getObjectDatabase();
            List<ObjectId> ids = new ArrayList<>();
            Path loose = objects.getDirectory().toPath();
            try (Stream<Path> files = Files.walk(loose, 2)) {
                files.filter(Files::isRegularFile)
                        .filter(f -> f.getParent().getFileName().toString().matches("[0-9a-f]{2}"))
                        .forEach(f -> ids.add(ObjectId.fromString(f.getParent().getFileName() + f.getFileName().toString())));
            }
            for (Pack pack : objects.getPacks()) {
                for (PackIndex.MutableEntry entry : pack) {
                    ids.add(entry.toObjectId());
                }
            }
            assertThat(ids).as("objects in the repository").isNotEmpty();
            for (ObjectId id : ids) {
                if (indexOf(reader.open(id).getCachedBytes(Integer.MAX_VALUE), needle) >= 0) {
                    hits.add(id.name());
                }
            }
        }
        return hits;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

}
