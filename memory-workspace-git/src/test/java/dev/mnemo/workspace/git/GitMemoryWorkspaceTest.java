package dev.mnemo.workspace.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Consolidation;
import dev.mnemo.testkit.contract.MemoryWorkspaceContract;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.MemoryWorkspaceProvider;
import dev.mnemo.spi.WorkspaceDiff.Change;
import dev.mnemo.spi.WorkspaceDiff.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.Test;

/** The workspace contract plus what is specific to the git history: layout, modes, recovery, pruning. */
class GitMemoryWorkspaceTest extends MemoryWorkspaceContract {

    private static final Instant NOW = Instant.parse("2026-04-01T12:00:00Z");

    @Override
    protected MemoryWorkspace open(Path root) {
        return GitMemoryWorkspace.open(root, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void reset_creates_fresh_baseline() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "first\n");
        workspace.commit(record("c1", 1), 10);
        write("MEMORY.md", "second\n");
        workspace.commit(record("c2", 1), 10);

        workspace.squashHistory();

        try (Repository repo = repo(); RevWalk walk = new RevWalk(repo)) {
            RevCommit head = walk.parseCommit(repo.resolve(Constants.HEAD));
            assertThat(head.getParentCount()).isZero();
            assertThat(head.getAuthorIdent().getName()).isEqualTo("Mnemo");
            assertThat(head.getCommitterIdent().getEmailAddress()).isEqualTo("mnemo@localhost");
            assertThat(repo.exactRef(Constants.HEAD).getTarget().getName()).isEqualTo("refs/heads/main");
            assertThat(treePaths(repo, head)).containsExactly("MEMORY.md");
        }
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void ensure_recovers_from_unborn_repository() throws Exception {
        Files.createDirectories(root);
        Git.init().setDirectory(root.toFile()).setInitialBranch("main").call().close();
        write("MEMORY.md", "kept\n");

        workspace.prepare();

        try (Repository repo = repo()) {
            assertThat(repo.resolve(Constants.HEAD)).isNotNull();
            try (RevWalk walk = new RevWalk(repo)) {
                assertThat(treePaths(repo, walk.parseCommit(repo.resolve(Constants.HEAD)))).containsExactly("MEMORY.md");
            }
        }
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void diff_reports_added_modified_and_deleted_files() throws IOException {
        write("modified.md", "old\n");
        write("deleted.md", "removed\n");
        workspace.prepare();
        write("modified.md", "new\n");
        Files.delete(root.resolve("deleted.md"));
        write("added/file.md", "added\n");

        assertThat(workspace.diff().changes()).containsExactly(
                new Change(Status.A, "added/file.md"),
                new Change(Status.D, "deleted.md"),
                new Change(Status.M, "modified.md"));
        assertThat(workspace.diff().unifiedDiff())
                .contains("diff --git a/modified.md b/modified.md\n--- a/modified.md\n+++ b/modified.md\n@@ -1 +1 @@\n-old\n+new\n")
                .contains("+++ /dev/null")
                .contains("--- /dev/null\n+++ b/added/file.md");
    }

    @Test
    void status_scan_does_not_write_added_file_blobs() throws IOException {
        workspace.prepare();
        long objectsBefore = looseObjectCount();
        write("never-stored.md", "only in the working folder\n");
        ObjectId blob = new ObjectInserter.Formatter()
                .idFor(Constants.OBJ_BLOB, "only in the working folder\n".getBytes(StandardCharsets.UTF_8));

        assertThat(workspace.diff().changes()).containsExactly(new Change(Status.A, "never-stored.md"));

        assertThat(looseObjectCount()).isEqualTo(objectsBefore);
        try (Repository repo = repo()) {
            assertThat(repo.getObjectDatabase().has(blob)).isFalse();
        }
    }

    @Test
    void reports_executable_bit_changes_as_modified() throws IOException {
        write("run.sh", "echo hi\n");
        workspace.prepare();
        Files.setPosixFilePermissions(root.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));

        assertThat(workspace.diff().changes()).containsExactly(new Change(Status.M, "run.sh"));
        assertThat(workspace.diff().unifiedDiff())
                .isEqualTo("diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n");

        workspace.commit(record("c1", 1), 10);
        Files.setPosixFilePermissions(root.resolve("run.sh"), PosixFilePermissions.fromString("rw-r--r--"));
        workspace.rollback("c1");
        assertThat(Files.isExecutable(root.resolve("run.sh"))).isTrue();
    }

    @Test
    void rollback_entry_gets_an_id_in_the_consolidation_format_at_the_workspace_clock() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "first\n");
        workspace.commit(record("c1", 1), 10);

        workspace.rollback("c1");

        Consolidation entry = workspace.history().get(0);
        assertThat(entry.id()).matches("\\d{8}T\\d{6}Z-[0-9a-f]{6}")
                .startsWith(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(NOW));
        assertThat(entry.at()).isEqualTo(NOW);
    }

    @Test
    void commit_all_creates_normal_parented_history() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "first\n");
        workspace.commit(record("c1", 1), 10);
        write("MEMORY.md", "second\n");
        workspace.commit(record("c2", 2), 10);

        try (Repository repo = repo(); RevWalk walk = new RevWalk(repo)) {
            RevCommit second = walk.parseCommit(repo.resolve(Constants.HEAD));
            RevCommit first = walk.parseCommit(second.getParent(0));
            RevCommit baseline = walk.parseCommit(first.getParent(0));
            assertThat(second.getParentCount()).isEqualTo(1);
            assertThat(baseline.getParentCount()).isZero();
            assertThat(first.getFullMessage()).contains("Mnemo-Consolidation-Id: c1");
            assertThat(second.getFullMessage())
                    .contains("Mnemo-Consolidation-Id: c2")
                    .contains("Mnemo-Selected: thread-1 1700000001\nMnemo-Selected: thread-2 1700000002\n")
                    .contains("Mnemo-Model: gpt-test")
                    .contains("Mnemo-Input-Tokens: 1000")
                    .contains("Mnemo-Inputs: 2");
            assertThat(baseline.getFullMessage()).doesNotContain("Mnemo-Consolidation-Id");
            assertThat(second.getAuthorIdent().getWhenAsInstant()).isEqualTo(at(2));
        }
    }

    @Test
    void workspace_diff_file_includes_deleted_head_content() throws IOException {
        write("rollout_summaries/old.md", "alpha\nbeta\ngamma\n");
        workspace.prepare();
        Files.delete(root.resolve("rollout_summaries/old.md"));

        assertThat(workspace.diff().unifiedDiff()).isEqualTo("""
                diff --git a/rollout_summaries/old.md b/rollout_summaries/old.md
                deleted file mode 100644
                --- a/rollout_summaries/old.md
                +++ /dev/null
                @@ -1,3 +0,0 @@
                -alpha
                -beta
                -gamma
                """);
    }

    @Test
    void commit_neverStoresTheWorkspaceDiffFile() throws IOException {
        write(DIFF_FILE, "before prepare\n");
        workspace.prepare();
        write(DIFF_FILE, "# Memory Workspace Diff\n");
        write("MEMORY.md", "memory\n");
        workspace.commit(record("c1", 1), 10);

        try (Repository repo = repo(); RevWalk walk = new RevWalk(repo)) {
            RevCommit head = walk.parseCommit(repo.resolve(Constants.HEAD));
            assertThat(treePaths(repo, head)).containsExactly("MEMORY.md");
            assertThat(treePaths(repo, walk.parseCommit(head.getParent(0)))).isEmpty();
        }
    }

    @Test
    void prepare_recreatesABrokenRepositoryFromTheCurrentFiles() throws IOException {
        write("MEMORY.md", "memory\n");
        workspace.prepare();
        workspace.commit(record("c1", 1), 10);
        workspace.close();
        ObjectId tree;
        try (Repository repo = repo()) {
            tree = repo.resolve(Constants.HEAD + "^{tree}");
        }
        Files.delete(root.resolve(".git/objects/" + tree.name().substring(0, 2) + "/" + tree.name().substring(2)));

        workspace = open(root);
        workspace.prepare();

        assertThat(workspace.history()).isEmpty();
        assertThat(workspace.diff().isEmpty()).isTrue();
        assertThat(root.resolve("MEMORY.md")).hasContent("memory");
    }

    @Test
    void prepare_removesASymlinkedGitFolderWithoutFollowingIt() throws IOException {
        Path elsewhere = temp.resolve("elsewhere");
        Files.createDirectories(elsewhere);
        Files.writeString(elsewhere.resolve("precious.txt"), "do not touch\n");
        Files.createDirectories(root);
        Files.createSymbolicLink(root.resolve(".git"), elsewhere);

        workspace.prepare();

        assertThat(Files.isSymbolicLink(root.resolve(".git"))).isFalse();
        assertThat(root.resolve(".git")).isDirectory();
        assertThat(elsewhere.resolve("precious.txt")).hasContent("do not touch");
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void diff_storesSymlinksAsLinkBlobs() throws IOException {
        write("MEMORY.md", "memory\n");
        workspace.prepare();
        Files.createSymbolicLink(root.resolve("link.md"), Path.of("MEMORY.md"));

        assertThat(workspace.diff().unifiedDiff()).isEqualTo("""
                diff --git a/link.md b/link.md
                new file mode 120000
                --- /dev/null
                +++ b/link.md
                @@ -0,0 +1 @@
                +MEMORY.md
                \\ No newline at end of file
                """);
        workspace.commit(record("c1", 1), 10);
        try (Repository repo = repo(); TreeWalk walk = TreeWalk.forPath(repo, "link.md", repo.resolve("HEAD^{tree}"))) {
            assertThat(walk.getFileMode(0)).isEqualTo(FileMode.SYMLINK);
        }
        Files.delete(root.resolve("link.md"));
        workspace.rollback("c1");
        assertThat(Files.readSymbolicLink(root.resolve("link.md"))).isEqualTo(Path.of("MEMORY.md"));
    }

    @Test
    void commit_rejectsIdsWithWhitespaceBeforeWritingAnything() {
        workspace.prepare();

        assertThatThrownBy(() -> workspace.commit(
                new ConsolidationRecord("bad id", NOW, List.of(), "m", TokenUsage.ZERO), 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bad id'");
        assertThat(workspace.history()).isEmpty();
    }

    @Test
    void retention_prunesObjectsOnlyDroppedEntriesHeld() throws IOException {
        write("notes.md", "SECRET-RETENTION-4711\n");
        workspace.prepare();
        assertThat(ObjectScan.findsText(root.resolve(".git"), "SECRET-RETENTION-4711")).isNotEmpty();
        for (int i = 1; i <= 3; i++) {
            write("notes.md", "clean version " + i + "\n");
            workspace.commit(record("c" + i, 1), 2);
        }

        assertThat(workspace.history()).extracting(Consolidation::id).containsExactly("c3", "c2");
        assertThat(ObjectScan.findsText(root.resolve(".git"), "SECRET-RETENTION-4711")).isEmpty();
        assertThat(ObjectScan.findsText(root.resolve(".git"), "clean version 3")).isNotEmpty();
    }

    @Test
    void squashHistory_leavesForgottenTextInNoObjectLooseOrPacked() throws Exception {
        workspace.prepare();
        write("MEMORY.md", "public fact\nSECRET-FORGET-9931 the user's password\n");
        workspace.commit(record("c1", 1), 10);
        try (Repository repo = repo(); Git git = Git.wrap(repo)) {
            git.gc().call();
        }
        write("MEMORY.md", "public fact\nSECRET-FORGET-9931 still here in a loose object\n");
        workspace.commit(record("c2", 1), 10);
        assertThat(ObjectScan.findsText(root.resolve(".git"), "SECRET-FORGET-9931")).hasSizeGreaterThanOrEqualTo(2);

        write("MEMORY.md", "public fact\n");
        workspace.squashHistory();

        assertThat(ObjectScan.findsText(root.resolve(".git"), "SECRET-FORGET-9931")).isEmpty();
        assertThat(ObjectScan.findsText(root.resolve(".git"), "public fact")).isNotEmpty();
        assertThat(workspace.history()).isEmpty();
    }

    @Test
    void dropWholeHistory_leavesTheTrimmedBaselinesTextInNoObjectLooseOrPacked() throws Exception {
        workspace.prepare();
        write("MEMORY.md", "public fact\nSECRET-FORGET-4417 from a trimmed consolidation\n");
        workspace.commit(record("c1", 1), 0); // only the baseline is kept
        try (Repository repo = repo(); Git git = Git.wrap(repo)) {
            git.gc().call();
        }
        write("extensions/ad_hoc/notes/n1.md", "a note\n");
        assertThat(ObjectScan.findsText(root.resolve(".git"), "SECRET-FORGET-4417")).isNotEmpty();

        workspace.dropWholeHistory();

        assertThat(ObjectScan.findsText(root.resolve(".git"), "SECRET-FORGET-4417")).isEmpty();
        assertThat(root.resolve("MEMORY.md")).doesNotExist();
        assertThat(ObjectScan.findsText(root.resolve(".git"), "a note")).isNotEmpty();
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void provider_isRegisteredAsGit() {
        MemoryWorkspaceProvider provider = ServiceLoader.load(MemoryWorkspaceProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("git"))
                .findFirst()
                .orElseThrow();

        try (MemoryWorkspace opened = provider.open(temp.resolve("other"))) {
            assertThat(opened).isInstanceOf(GitMemoryWorkspace.class);
            assertThat(opened.root()).isEqualTo(temp.resolve("other").toAbsolutePath());
        }
    }

    @Test
    void prepare_recreatesARepositoryWhoseHeadIsGarbage() throws IOException {
        write("MEMORY.md", "memory\n");
        workspace.prepare();
        workspace.commit(record("c1", 1), 10);
        workspace.close();
        Files.writeString(root.resolve(".git/HEAD"), "not a ref at all\n");

        workspace = open(root);
        workspace.prepare();

        assertThat(workspace.history()).isEmpty();
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void prepare_replacesAGitFileByAFolder() throws IOException {
        write(".git", "gitdir: /somewhere/else\n");

        workspace.prepare();

        assertThat(root.resolve(".git")).isDirectory();
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void diff_marksAMissingFinalNewlineLikeGit() throws IOException {
        write("a.md", "keep\nlast");
        workspace.prepare();
        write("a.md", "keep\nlast\n");

        assertThat(workspace.diff().unifiedDiff()).isEqualTo("""
                diff --git a/a.md b/a.md
                --- a/a.md
                +++ b/a.md
                @@ -1,2 +1,2 @@
                 keep
                -last
                \\ No newline at end of file
                +last
                """);
    }

    @Test
    void diff_summarisesBinaryFiles() throws IOException {
        workspace.prepare();
        Files.write(root.resolve("image.bin"), new byte[] {0, 1, 2, 0, 3});

        assertThat(workspace.diff().unifiedDiff()).isEqualTo(
                "diff --git a/image.bin b/image.bin\nnew file mode 100644\nBinary files /dev/null and b/image.bin differ\n");
    }

    @Test
    void diff_splitsDistantChangesIntoSeparateHunks() throws IOException {
        StringBuilder before = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            before.append("line").append(i).append('\n');
        }
        write("long.md", before.toString());
        workspace.prepare();
        write("long.md", before.toString().replace("line2\n", "LINE2\n").replace("line19\n", "LINE19\n"));

        assertThat(workspace.diff().unifiedDiff())
                .contains("@@ -1,5 +1,5 @@\n line1\n-line2\n+LINE2\n line3\n line4\n line5\n")
                .contains("@@ -16,5 +16,5 @@\n line16\n line17\n line18\n-line19\n+LINE19\n line20\n");
    }

    private Repository repo() throws IOException {
        return new FileRepositoryBuilder().setGitDir(root.resolve(".git").toFile()).setMustExist(true).build();
    }

    private static List<String> treePaths(Repository repo, RevCommit commit) throws IOException {
        List<String> paths = new ArrayList<>();
        try (TreeWalk walk = new TreeWalk(repo)) {
            walk.addTree(commit.getTree());
            walk.setRecursive(true);
            while (walk.next()) {
                paths.add(walk.getPathString());
            }
        }
        return paths;
    }

    private long looseObjectCount() throws IOException {
        try (var files = Files.walk(root.resolve(".git/objects"))) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.getParent().getFileName().toString().matches("[0-9a-f]{2}"))
                    .count();
        }
    }
}
