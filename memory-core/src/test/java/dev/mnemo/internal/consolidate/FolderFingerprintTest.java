package dev.mnemo.internal.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FolderFingerprintTest {

    @TempDir
    Path root;

    @Test
    void changedIn_namesFilesAddedRemovedAndRewritten_notTheOnesLeftAlone() throws Exception {
        Files.writeString(root.resolve("MEMORY.md"), "# Memory\n");
        Files.writeString(root.resolve("memory_summary.md"), "summary\n");
        Files.createDirectories(root.resolve("skills/deploy"));
        Files.writeString(root.resolve("skills/deploy/SKILL.md"), "steps\n");
        FolderFingerprint before = FolderFingerprint.of(root);

        Files.writeString(root.resolve("memory_summary.md"), "a new summary\n");
        Files.delete(root.resolve("skills/deploy/SKILL.md"));
        Files.writeString(root.resolve("raw_memories.md"), "raw\n");

        assertThat(before.changedIn(FolderFingerprint.of(root)))
                .containsExactlyInAnyOrder("memory_summary.md", "skills/deploy/SKILL.md", "raw_memories.md");
    }

    @Test
    void theGitFolderIsNoMemoryFile() throws Exception {
        Files.writeString(root.resolve("MEMORY.md"), "# Memory\n");
        Files.createDirectories(root.resolve(".git/objects"));
        FolderFingerprint before = FolderFingerprint.of(root);

        Files.writeString(root.resolve(".git/objects/ab"), "blob");

        assertThat(before.checksums()).containsOnlyKeys("MEMORY.md");
        assertThat(before.changedIn(FolderFingerprint.of(root))).isEmpty();
    }

    @Test
    void aFolderNotYetMadeHasNoFiles() throws Exception {
        assertThat(FolderFingerprint.of(root.resolve("missing")).checksums()).isEmpty();
    }
}
