package dev.mnemo.workspace.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two things a diff keeps between calls never hide a change. The baseline check is not repeated
 * while the object folder's stamp is unchanged, yet a baseline object that vanished is noticed —
 * deleted by another process, with the folder's times put back, after a clock step back — and the
 * history re-created. A working file is not re-hashed while its stat is unchanged, yet a rewrite is
 * seen — by another process, by rename with the same size and time, in place with the time put
 * back, after a clock step back.
 */
class WorkspaceDiffCacheTest {

    private static final Instant COMMIT_TIME = Instant.parse("2026-04-01T12:00:00Z");

    @TempDir
    Path temp;

    private Path root;
    private GitMemoryWorkspace workspace;

    @BeforeEach
    void createWorkspace() throws IOException {
        root = Files.createDirectories(temp.resolve("memories"));
        Files.writeString(root.resolve("MEMORY.md"), "memory\n", StandardCharsets.UTF_8);
        Files.writeString(root.resolve("notes.md"), "notes\n", StandardCharsets.UTF_8);
        workspace = GitMemoryWorkspace.open(root, Clock.fixed(COMMIT_TIME, ZoneOffset.UTC));
        workspace.prepare();
    }

    @AfterEach
    void closeWorkspace() {
        workspace.close();
    }

    private ObjectId head() throws IOException {
        try (Repository repo = repo()) {
            return repo.resolve("HEAD^{commit}");
        }
    }

    private Path blobFile(String path) throws IOException {
        try (Repository repo = repo()) {
            String id = repo.resolve("HEAD:" + path).name();
            return root.resolve(".git/objects/" + id.substring(0, 2) + "/" + id.substring(2));
        }
    }

    private Repository repo() throws IOException {
        return new FileRepositoryBuilder().setGitDir(root.resolve(".git").toFile()).setMustExist(true).build();
    }

    /** Puts every folder time under .git/objects a day back, so a later change always moves them. */
    private void ageObjectFolders() throws IOException {
        FileTime dayAgo = FileTime.from(Instant.now().minus(Duration.ofDays(1)));
        try (var folders = Files.walk(root.resolve(".git/objects"))) {
            for (Path folder : folders.filter(Files::isDirectory).toList()) {
                Files.setLastModifiedTime(folder, dayAgo);
            }
        }
    }

    private void assertHistoryRecreatedWithEveryBlob(ObjectId before) throws IOException {
        assertThat(workspace.diff().isEmpty()).isTrue();
        assertThat(head()).isNotEqualTo(before);
        assertThat(blobFile("MEMORY.md")).exists();
        assertThat(root.resolve("MEMORY.md")).hasContent("memory");
    }

    @Test
    void diff_seesABaselineObjectDeletedByAnotherProcess() throws Exception {
        workspace.useWallClock(Clock.offset(Clock.systemUTC(), Duration.ofHours(1))); // stamps are trusted
        ageObjectFolders();
        assertThat(workspace.diff().isEmpty()).isTrue(); // checked once; the answer is kept
        ObjectId before = head();
        Path blob = blobFile("MEMORY.md");

        Process rm = new ProcessBuilder("rm", "-f", blob.toString()).inheritIO().start();
        assertThat(rm.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(blob).doesNotExist();

        assertHistoryRecreatedWithEveryBlob(before);
    }

    @Test
    void diff_seesAnObjectDeletedRightAfterTheCheckWithTheFolderTimesPutBack() throws IOException {
        workspace.useWallClock(Clock.systemUTC()); // the folders changed just now: racy, never trusted
        assertThat(workspace.diff().isEmpty()).isTrue();
        ObjectId before = head();
        Path blob = blobFile("MEMORY.md");
        FileTime folderTime = Files.getLastModifiedTime(blob.getParent());

        Files.delete(blob);
        Files.setLastModifiedTime(blob.getParent(), folderTime);

        assertHistoryRecreatedWithEveryBlob(before);
    }

    @Test
    void diff_afterTheClockStepsBack_seesAnObjectDeletedWithTheFolderTimesPutBack() throws IOException {
        workspace.useWallClock(Clock.offset(Clock.systemUTC(), Duration.ofHours(-1))); // folder times look future
        ageObjectFolders();
        assertThat(workspace.diff().isEmpty()).isTrue();
        ObjectId before = head();
        Path blob = blobFile("notes.md");
        FileTime folderTime = Files.getLastModifiedTime(blob.getParent());

        Files.delete(blob);
        Files.setLastModifiedTime(blob.getParent(), folderTime);

        // ctime moved (it cannot be set back), and a clock behind the file system trusts nothing anyway
        assertThat(workspace.diff().isEmpty()).isTrue();
        assertThat(head()).isNotEqualTo(before);
        assertThat(blobFile("notes.md")).exists();
    }

    private void agePath(Path file) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofDays(1))));
    }

    @Test
    void diff_seesAWorkingFileRewrittenByAnotherProcess() throws Exception {
        workspace.useWallClock(Clock.offset(Clock.systemUTC(), Duration.ofHours(1))); // stats are trusted
        agePath(root.resolve("MEMORY.md"));
        assertThat(workspace.diff().isEmpty()).isTrue(); // hashed once; the blob id is kept

        Process writer = new ProcessBuilder("sh", "-c", "printf 'MEMORY\\n' > \"$1\"", "sh",
                root.resolve("MEMORY.md").toString()).inheritIO().start();
        assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(Files.size(root.resolve("MEMORY.md"))).isEqualTo("memory\n".length());
        assertThat(workspace.diff().unifiedDiff()).contains("-memory").contains("+MEMORY");
    }

    @Test
    void diff_seesAWorkingFileReplacedByRenameWithTheSameSizeAndModificationTime() throws IOException {
        workspace.useWallClock(Clock.offset(Clock.systemUTC(), Duration.ofHours(1)));
        agePath(root.resolve("MEMORY.md"));
        FileTime time = Files.getLastModifiedTime(root.resolve("MEMORY.md"));
        assertThat(workspace.diff().isEmpty()).isTrue();

        Path next = Files.writeString(temp.resolve("MEMORY.md.next"), "MEMORY\n", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(next, time);
        Files.move(next, root.resolve("MEMORY.md"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        assertThat(workspace.diff().unifiedDiff()).contains("+MEMORY");
    }

    @Test
    void diff_seesAWorkingFileRewrittenInPlaceRightAfterAScanWithTheTimePutBack() throws IOException {
        workspace.useWallClock(Clock.systemUTC()); // written just now: racy, hashed again every scan
        FileTime time = Files.getLastModifiedTime(root.resolve("MEMORY.md"));
        assertThat(workspace.diff().isEmpty()).isTrue();

        Files.writeString(root.resolve("MEMORY.md"), "MEMORY\n", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(root.resolve("MEMORY.md"), time);

        assertThat(workspace.diff().unifiedDiff()).contains("+MEMORY");
    }

    @Test
    void diff_afterTheClockStepsBack_seesAWorkingFileRewrittenInPlaceWithTheTimePutBack() throws IOException {
        workspace.useWallClock(Clock.offset(Clock.systemUTC(), Duration.ofHours(-1)));
        agePath(root.resolve("MEMORY.md"));
        FileTime time = Files.getLastModifiedTime(root.resolve("MEMORY.md"));
        assertThat(workspace.diff().isEmpty()).isTrue();

        Files.writeString(root.resolve("MEMORY.md"), "MEMORY\n", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(root.resolve("MEMORY.md"), time);

        assertThat(workspace.diff().unifiedDiff()).contains("+MEMORY");
    }

    @Test
    void diff_seesAFileRewrittenInPlaceWhileOthersAroundItAreAddedAndDeleted() throws IOException {
        workspace.useWallClock(Clock.offset(Clock.systemUTC(), Duration.ofHours(1))); // stats are trusted
        for (String name : new String[] {"a.md", "c/one.md", "c/two.md", "d.md"}) {
            Files.createDirectories(root.resolve(name).getParent());
            Files.writeString(root.resolve(name), name + "\n", StandardCharsets.UTF_8);
            agePath(root.resolve(name));
        }
        workspace.squashHistory();
        assertThat(workspace.diff().isEmpty()).isTrue(); // every file hashed once; the blob ids are kept
        FileTime time = Files.getLastModifiedTime(root.resolve("c/two.md"));

        Files.delete(root.resolve("c/one.md"));
        Files.writeString(root.resolve("b.md"), "added\n", StandardCharsets.UTF_8);
        Files.writeString(root.resolve("c/two.md"), "C/TWO.MD\n", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(root.resolve("c/two.md"), time);

        assertThat(workspace.diff().changes()).extracting(c -> c.status() + " " + c.path())
                .containsExactly("A b.md", "D c/one.md", "M c/two.md");
    }
}
