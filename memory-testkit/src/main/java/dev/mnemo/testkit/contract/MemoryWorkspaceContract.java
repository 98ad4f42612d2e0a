package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Consolidation;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.WorkspaceDiff;
import dev.mnemo.spi.WorkspaceDiff.Change;
import dev.mnemo.spi.WorkspaceDiff.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link MemoryWorkspace} must have. An implementation's test extends this
 * class and provides {@link #open(Path)}: open the implementation under test for a memory root
 * inside a test's temp folder (the root may not exist yet). The suite writes files under the root
 * with plain {@code java.nio}, calls the workspace, and closes it after each test.
 *
 * <p>This class's own tests are the baseline, the diff and the commit; the kept history (rollback,
 * a consolidation's diff, dropping and squashing history, clearing) is
 * {@link WorkspaceHistoryContract}, run here as a nested class against the same implementation.
 */
public abstract class MemoryWorkspaceContract extends MemoryWorkspaceContractSupport {

    @Test
    void prepare_createsMissingRootWithCleanDiff() {
        workspace.prepare();

        assertThat(root).isDirectory();
        assertThat(workspace.diff().isEmpty()).isTrue();
        assertThat(workspace.diff().unifiedDiff()).isEmpty();
    }

    @Test
    void prepare_takesFilesAlreadyThereAsTheBaseline() throws IOException {
        write("MEMORY.md", "# Memory\n");
        write("rollout_summaries/a.md", "summary\n");

        workspace.prepare();

        assertThat(workspace.diff().changes()).isEmpty();
    }

    @Test
    void prepare_calledAgainKeepsBaselineAndHistory() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "one\n");
        workspace.commit(record("c1", 1), 10);
        write("MEMORY.md", "two\n");

        workspace.prepare();

        assertThat(workspace.history()).extracting(Consolidation::id).containsExactly("c1");
        assertThat(workspace.diff().changes()).containsExactly(new Change(Status.M, "MEMORY.md"));
    }

    @Test
    void history_isEmptyForAWorkspaceNeverPrepared() {
        assertThat(workspace.history()).isEmpty();
    }

    @Test
    void diff_reportsAddedModifiedAndDeletedSortedByPath() throws IOException {
        write("keep.md", "same\n");
        write("modify.md", "before\n");
        write("remove.md", "gone soon\n");
        write("sub/old.md", "old\n");
        workspace.prepare();
        write("modify.md", "after\n");
        Files.delete(root.resolve("remove.md"));
        write("added.md", "new\n");
        write("sub/new.md", "fresh\n");

        WorkspaceDiff diff = workspace.diff();

        assertThat(diff.changes()).containsExactly(
                new Change(Status.A, "added.md"),
                new Change(Status.M, "modify.md"),
                new Change(Status.D, "remove.md"),
                new Change(Status.A, "sub/new.md"));
        assertThat(diff.isEmpty()).isFalse();
    }

    @Test
    void diff_neverReportsTheWorkspaceDiffFile() throws IOException {
        workspace.prepare();
        write(DIFF_FILE, "# Memory Workspace Diff\n");

        assertThat(workspace.diff().changes()).isEmpty();
        assertThat(workspace.diff().unifiedDiff()).doesNotContain(DIFF_FILE);
    }

    @Test
    void diff_skipsEmptyDirectories() throws IOException {
        workspace.prepare();
        Files.createDirectories(root.resolve("skills/empty"));

        assertThat(workspace.diff().changes()).isEmpty();
    }

    @Test
    void diff_writesGitStylePatchWithThreeLinesOfContext() throws IOException {
        write("notes.md", lines(1, 10, 0));
        workspace.prepare();
        write("notes.md", lines(1, 10, 5));

        assertThat(workspace.diff().unifiedDiff()).isEqualTo("""
                diff --git a/notes.md b/notes.md
                --- a/notes.md
                +++ b/notes.md
                @@ -2,7 +2,7 @@
                 line2
                 line3
                 line4
                -line5
                +LINE5
                 line6
                 line7
                 line8
                """);
    }

    @Test
    void diff_marksNewAndDeletedFilesAgainstDevNull() throws IOException {
        write("old.md", "bye\n");
        workspace.prepare();
        Files.delete(root.resolve("old.md"));
        write("new.md", "hello\n");

        assertThat(workspace.diff().unifiedDiff()).isEqualTo("""
                diff --git a/new.md b/new.md
                new file mode 100644
                --- /dev/null
                +++ b/new.md
                @@ -0,0 +1 @@
                +hello
                diff --git a/old.md b/old.md
                deleted file mode 100644
                --- a/old.md
                +++ /dev/null
                @@ -1 +0,0 @@
                -bye
                """);
    }

    @Test
    void commit_makesTheDiffCleanAndReturnsTheEntry() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "# Memory\n");

        Consolidation entry = workspace.commit(record("c1", 2), 10);

        assertThat(workspace.diff().isEmpty()).isTrue();
        assertThat(entry.id()).isEqualTo("c1");
        assertThat(entry.inputs()).isEqualTo(2);
        assertThat(entry.threadIds()).containsExactly("thread-1", "thread-2");
        assertThat(entry.model()).isEqualTo("gpt-test");
        assertThat(entry.at()).isEqualTo(at(1));
    }

    @Test
    void noteAdded_keepsTheNoteInTheDiffAsAddedUntilCommitted() throws IOException {
        workspace.prepare();
        String note = "extensions/ad_hoc/notes/2026-03-01T00-00-00-tabs.md";
        write(note, "user prefers tabs\n");

        assertThat(workspace.noteAdded(root.resolve(note))).isTrue();

        assertThat(workspace.diff().changes()).containsExactly(new Change(Status.A, note));
        workspace.commit(record("c1", 1), 10);
        assertThat(workspace.diff().isEmpty()).isTrue();
        assertThat(root.resolve(note)).hasContent("user prefers tabs\n");
    }

    @Test
    void commit_leavesTheDiffFileOutOfTheBaseline() throws IOException {
        workspace.prepare();
        write(DIFF_FILE, "# Memory Workspace Diff\n");
        write("MEMORY.md", "# Memory\n");
        workspace.commit(record("c1", 1), 10);
        write("MEMORY.md", "# Changed\n");

        workspace.rollback("c1");

        assertThat(root.resolve(DIFF_FILE)).hasContent("# Memory Workspace Diff");
        assertThat(workspace.diff().changes()).isEmpty();
    }

    @Test
    void history_listsConsolidationsNewestFirst() throws IOException {
        workspace.prepare();
        for (int i = 1; i <= 3; i++) {
            write("MEMORY.md", "version " + i + "\n");
            workspace.commit(record("c" + i, i), 10);
        }

        List<Consolidation> history = workspace.history();

        assertThat(history).extracting(Consolidation::id).containsExactly("c3", "c2", "c1");
        assertThat(history.get(0).inputs()).isEqualTo(3);
        assertThat(history.get(2).at()).isEqualTo(at(1));
        assertThat(history.get(1).threadIds()).containsExactly("thread-1", "thread-2");
    }

    @Test
    void commit_keepsAtMostRetentionEntries() throws IOException {
        commitEach(2, "version 1", "version 2", "version 3", "version 4");

        assertThat(workspace.history()).extracting(Consolidation::id).containsExactly("c4", "c3");
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void commit_withRetentionZeroKeepsNoEntryButMovesTheBaseline() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "# Memory\n");

        Consolidation entry = workspace.commit(record("c1", 1), 0);

        assertThat(entry.id()).isEqualTo("c1");
        assertThat(workspace.history()).isEmpty();
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test // issue 36: a forget with no kept state free of the thread's text
    void dropWholeHistory_removesEveryGeneratedFileAndEntry_keepsTheNotes_andLeavesACleanDiff() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "# Memory\nthe forgotten text\n");
        write("skills/deploy/SKILL.md", "the forgotten text\n");
        write("extensions/ad_hoc/notes/n1.md", "a note\n");
        workspace.commit(record("c1", 1), 0);
        write("MEMORY.md", "# Memory\nthe forgotten text, still\n");
        workspace.commit(record("c2", 1), 10);

        workspace.dropWholeHistory();

        assertThat(workspace.history()).isEmpty();
        assertThat(workspace.root().resolve("MEMORY.md")).doesNotExist();
        assertThat(workspace.root().resolve("skills")).doesNotExist();
        assertThat(workspace.root().resolve("extensions/ad_hoc/notes/n1.md")).hasContent("a note");
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void commit_rejectsNegativeRetention() {
        workspace.prepare();

        assertThatThrownBy(() -> workspace.commit(record("c1", 1), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    /** {@link WorkspaceHistoryContract}, opened through this class's {@link #open(Path)}. */
    @Nested
    class History extends WorkspaceHistoryContract {
        @Override
        protected MemoryWorkspace open(Path root) {
            return MemoryWorkspaceContract.this.open(root);
        }
    }
}
