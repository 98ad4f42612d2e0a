package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36: the home is created 0700 and every file in it kept 0600, as {@code history.jsonl}
 * already was: the SQLite files and their {@code -wal}/{@code -shm}, the thread logs and goals,
 * the rollouts, the memory folder and its git objects, and the files a rollback restores. Skipped
 * on a file system without POSIX modes.
 */
class HomePermissionsTest {

    @TempDir
    Path temp;

    @Test
    void afterAFullPipelineRunAndARollback_everyFolderIs0700_andEveryFile0600() throws IOException {
        assumeTrue(temp.getFileSystem().supportedFileAttributeViews().contains("posix"), "no POSIX modes here");
        Path home = temp.resolve("home");
        MutableClock clock = new MutableClock(Pipeline.T0);
        try (MemoryEngine engine = MemoryEngine.builder().home(home).model(new ScriptedModel()).clock(clock).build()) {
            String id = Pipeline.uuidV7(clock.instant());
            try (RecordedSession s = engine.sessions().start(SessionContext.root(id))) {
                s.userMessage("the release checklist lives in docs/release.md");
                s.assistantMessage("Noted.");
            }
            engine.goals().set(id, "ship the release", OptionalLong.empty());
            clock.advance(Duration.ofHours(7));
            assertThat(engine.admin().runPhase1("current-thread").succeeded()).isEqualTo(1);
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            String first = engine.admin().history().get(0).id();
            engine.admin().rollback(first);
            engine.threadLogs().flush();
            assertThat(home.resolve("logs.sqlite")).exists();
            assertThat(home.resolve("goals.sqlite")).exists();
            assertThat(modes(home)).as("while the engine is open").allSatisfy(HomePermissionsTest::ownerOnly);
        }

        Map<String, String> modes = modes(home);
        assertThat(modes.get("")).isEqualTo("rwx------");
        assertThat(modes).containsKeys("mnemo.sqlite", "logs.sqlite", "goals.sqlite", "history.jsonl",
                "memories/MEMORY.md", "memories/.git");
        assertThat(modes).allSatisfy(HomePermissionsTest::ownerOnly);
    }

    /** A mode {@link #modes} found right: anything else carries a "folder " or "file " prefix and fails. */
    private static void ownerOnly(String path, String mode) {
        assertThat(mode).as(path).isIn("rwx------", "rw-------");
    }

    /**
     * Every folder's and file's mode under {@code root}, keyed by relative path: a folder at 0700 or
     * a file at 0600 as the mode alone, anything else prefixed with what it is.
     */
    private static Map<String, String> modes(Path root) throws IOException {
        Map<String, String> modes = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.toList()) {
                String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
                boolean folder = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
                modes.put(root.relativize(p).toString(), (folder ? mode.equals("rwx------") : mode.equals("rw-------"))
                        ? mode : (folder ? "folder " : "file ") + mode);
            }
        }
        return modes;
    }
}
