package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Consolidation;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.WorkspaceDiff;
import dev.mnemo.spi.WorkspaceDiff.Change;
import dev.mnemo.spi.WorkspaceDiff.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link MemoryWorkspace} must have. An implementation's test extends this
 * class and provides {@link #open(Path)}: open the implementation under test for a memory root
 * inside a test's temp folder (the root may not exist yet). The suite writes files under the root
 * with plain {@code java.nio}, calls the workspace, and closes it after each test.
 */
public abstract class MemoryWorkspaceContract {

    /** The name of the transient diff file Phase 2 writes; never part of a baseline. */
    protected static final String DIFF_FILE = "phase2_workspace_diff.md";

    @TempDir
    protected Path temp;

    protected Path root;
    protected MemoryWorkspace workspace;

    /** Opens the implementation under test for {@code root} (which may not exist yet). */
    protected abstract MemoryWorkspace open(Path root);

    @BeforeEach
    void openWorkspace() {
        root = temp.resolve("memories");
        workspace = open(root);
    }

    @AfterEach
    void closeWorkspace() {
        workspace.close();
    }

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

    @Test
    void rollback_restoresTheFilesAsThatConsolidationLeftThem() throws IOException {
        write("kept.md", "kept\n");
        workspace.prepare();
        write("MEMORY.md", "first\n");
        write("skills/a/SKILL.md", "skill\n");
        workspace.commit(record("c1", 1), 10);
        write("MEMORY.md", "second\n");
        Files.delete(root.resolve("skills/a/SKILL.md"));
        write("later/added.md", "added later\n");
        workspace.commit(record("c2", 2), 10);

        workspace.rollback("c1");

        assertThat(root.resolve("MEMORY.md")).hasContent("first");
        assertThat(root.resolve("skills/a/SKILL.md")).hasContent("skill");
        assertThat(root.resolve("kept.md")).hasContent("kept");
        assertThat(root.resolve("later/added.md")).doesNotExist();
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void rollback_returnsTheRestoredRecordAndAddsANewEntry() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "first\n");
        ConsolidationRecord first = record("c1", 2);
        workspace.commit(first, 10);
        write("MEMORY.md", "second\n");
        workspace.commit(record("c2", 1), 10);

        ConsolidationRecord restored = workspace.rollback("c1");

        assertThat(restored).isEqualTo(first);
        List<Consolidation> history = workspace.history();
        assertThat(history).hasSize(3);
        assertThat(history.get(0).id()).isNotIn("c1", "c2");
        assertThat(history.get(0).threadIds()).containsExactly("thread-1", "thread-2");
        assertThat(history).extracting(Consolidation::id).endsWith("c2", "c1");
    }

    @Test
    void rollback_ofAnUnknownIdFailsNamingIt() {
        workspace.prepare();

        assertThatThrownBy(() -> workspace.rollback("no-such-consolidation"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no-such-consolidation");
    }

    // ---- consolidationDiff: what one kept consolidation changed -----------------------------------

    @Test
    void consolidationDiff_showsWhatThatConsolidationChanged() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "# Memory\nalpha\n");
        write("skills/old/SKILL.md", "old skill\n");
        workspace.commit(record("c1", 1), 10);
        write("MEMORY.md", "# Memory\nalpha\nbravo\n");
        Files.delete(root.resolve("skills/old/SKILL.md"));
        write("skills/new/SKILL.md", "new skill\n");
        workspace.commit(record("c2", 1), 10);
        write("MEMORY.md", "# Memory\ncharlie\n");
        workspace.commit(record("c3", 1), 10);

        assertThat(workspace.consolidationDiff("c2")).isEqualTo("""
                diff --git a/MEMORY.md b/MEMORY.md
                --- a/MEMORY.md
                +++ b/MEMORY.md
                @@ -1,2 +1,3 @@
                 # Memory
                 alpha
                +bravo
                diff --git a/skills/new/SKILL.md b/skills/new/SKILL.md
                new file mode 100644
                --- /dev/null
                +++ b/skills/new/SKILL.md
                @@ -0,0 +1 @@
                +new skill
                diff --git a/skills/old/SKILL.md b/skills/old/SKILL.md
                deleted file mode 100644
                --- a/skills/old/SKILL.md
                +++ /dev/null
                @@ -1 +0,0 @@
                -old skill
                """);
        assertThat(workspace.diff().isEmpty()).as("reading history changes no file").isTrue();
    }

    @Test
    void consolidationDiff_ofTheOldestEntry_isFromAnEmptyFolder() throws IOException {
        write("kept.md", "there before any consolidation\n");
        workspace.prepare();
        write("MEMORY.md", "first\n");
        workspace.commit(record("c1", 1), 10);

        assertThat(workspace.consolidationDiff("c1")).isEqualTo("""
                diff --git a/MEMORY.md b/MEMORY.md
                new file mode 100644
                --- /dev/null
                +++ b/MEMORY.md
                @@ -0,0 +1 @@
                +first
                diff --git a/kept.md b/kept.md
                new file mode 100644
                --- /dev/null
                +++ b/kept.md
                @@ -0,0 +1 @@
                +there before any consolidation
                """);
    }

    @Test
    void consolidationDiff_ofTheOldestKeptEntry_isFromAnEmptyFolder_afterOlderOnesWereTrimmed() throws IOException {
        commitEach(2, "version 1", "version 2", "version 3");

        assertThat(workspace.consolidationDiff("c2")).contains("--- /dev/null", "+version 2").doesNotContain("version 1");
        assertThat(workspace.consolidationDiff("c3")).contains("-version 2", "+version 3");
    }

    @Test
    void consolidationDiff_ofARollback_showsTheFilesItRestored() throws IOException {
        commitEach(10, "first", "second");

        workspace.rollback("c1");

        assertThat(workspace.consolidationDiff(workspace.history().get(0).id())).isEqualTo("""
                diff --git a/MEMORY.md b/MEMORY.md
                --- a/MEMORY.md
                +++ b/MEMORY.md
                @@ -1 +1 @@
                -second
                +first
                """);
    }

    @Test
    void consolidationDiff_ofAnUnknownId_isRefused() throws IOException {
        assertThatThrownBy(() -> workspace.consolidationDiff("no-such-consolidation"))
                .as("a workspace never prepared").isInstanceOf(IllegalArgumentException.class);
        workspace.prepare();
        write("MEMORY.md", "first\n");
        workspace.commit(record("c1", 1), 10);

        assertThatThrownBy(() -> workspace.consolidationDiff("no-such-consolidation"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no-such-consolidation");
    }

    // ---- dropHistoryFrom: forgetting that takes effect at once --------------------------------------

    /** An ad-hoc note the user wrote through the memory tools; a drop keeps it. */
    private static final String NOTE = "extensions/ad_hoc/notes/2026-03-01T00-00-00-tabs.md";

    /**
     * Two consolidations: {@code c1} leaves files holding "alpha" (and takes an ad-hoc note),
     * {@code c2} adds "bravo-secret"; returns {@code c1}'s record.
     */
    private ConsolidationRecord alphaThenBravo() throws IOException {
        workspace.prepare();
        write("extensions/ad_hoc/instructions.md", "how to write notes\n");
        write(NOTE, "user prefers tabs\n");
        workspace.noteAdded(root.resolve(NOTE));
        write("MEMORY.md", "# Memory\nalpha\n");
        write("memory_summary.md", "v1\nalpha\n");
        ConsolidationRecord alpha = record("c1", 1);
        workspace.commit(alpha, 10);
        write("MEMORY.md", "# Memory\nalpha\nbravo-secret\n");
        write("skills/bravo/SKILL.md", "bravo-secret skill\n");
        write("rollout_summaries/bravo.md", "bravo-secret summary\n");
        workspace.commit(record("c2", 2), 10);
        return alpha;
    }

    @Test
    void dropHistoryFrom_restoresTheNewestRemainingEntrysFiles_andForgetsTheDroppedOnes() throws IOException {
        ConsolidationRecord alpha = alphaThenBravo();
        write(DIFF_FILE, "-bravo-secret\n"); // left by a failed consolidation: it quotes the baseline

        Optional<ConsolidationRecord> restored = workspace.dropHistoryFrom("c2");

        assertThat(restored).contains(alpha);
        assertThat(workspace.history()).extracting(Consolidation::id).containsExactly("c1");
        assertThat(root.resolve("MEMORY.md")).hasContent("# Memory\nalpha");
        assertThat(root.resolve("memory_summary.md")).hasContent("v1\nalpha");
        assertThat(root.resolve("skills/bravo/SKILL.md")).doesNotExist();
        assertThat(root.resolve("rollout_summaries/bravo.md")).doesNotExist();
        assertThat(root.resolve(NOTE)).hasContent("user prefers tabs");
        assertThat(filesHolding("bravo-secret")).isEmpty();
        assertThat(workspace.diff().isEmpty()).as("the baseline is the restored files").isTrue();
        assertThatThrownBy(() -> workspace.rollback("c2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("c2");
    }

    @Test
    void dropHistoryFrom_theOldestEntryRemovesTheGeneratedFiles_butKeepsExtensions() throws IOException {
        alphaThenBravo();

        Optional<ConsolidationRecord> restored = workspace.dropHistoryFrom("c1");

        assertThat(restored).isEmpty();
        assertThat(workspace.history()).isEmpty();
        assertThat(root.resolve("MEMORY.md")).doesNotExist();
        assertThat(root.resolve("memory_summary.md")).doesNotExist();
        assertThat(root.resolve("skills/bravo/SKILL.md")).doesNotExist();
        assertThat(root.resolve(NOTE)).hasContent("user prefers tabs");
        assertThat(root.resolve("extensions/ad_hoc/instructions.md")).hasContent("how to write notes");
        assertThat(filesHolding("alpha")).isEmpty();
        assertThat(filesHolding("bravo-secret")).isEmpty();
        assertThat(workspace.diff().isEmpty()).isTrue();
        assertThatThrownBy(() -> workspace.rollback("c1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void dropHistoryFrom_leavesAWorkspaceThatCommitsAndSurvivesReopening() throws IOException {
        alphaThenBravo();
        workspace.dropHistoryFrom("c2");
        write("MEMORY.md", "# Memory\nalpha\ncharlie\n");

        workspace.commit(record("c3", 1), 10);
        workspace.close();
        workspace = open(root);
        workspace.prepare();

        assertThat(workspace.history()).extracting(Consolidation::id).containsExactly("c3", "c1");
        assertThat(workspace.diff().isEmpty()).isTrue();
        assertThat(root.resolve("MEMORY.md")).hasContent("# Memory\nalpha\ncharlie");
    }

    @Test
    void dropHistoryFrom_anUnknownIdFailsNamingIt_andChangesNothing() throws IOException {
        alphaThenBravo();

        assertThatThrownBy(() -> workspace.dropHistoryFrom("no-such-consolidation"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no-such-consolidation");
        assertThat(workspace.history()).extracting(Consolidation::id).containsExactly("c2", "c1");
        assertThat(root.resolve("MEMORY.md")).hasContent("# Memory\nalpha\nbravo-secret");
    }

    @Test
    void squashHistory_keepsTheFilesAndDropsEveryEntry() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "first\n");
        workspace.commit(record("c1", 1), 10);
        write("MEMORY.md", "second\n");

        workspace.squashHistory();

        assertThat(workspace.history()).isEmpty();
        assertThat(workspace.diff().isEmpty()).isTrue();
        assertThat(root.resolve("MEMORY.md")).hasContent("second");
    }

    @Test
    void clear_deletesEveryFileAndTheHistory() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "first\n");
        write("skills/a/SKILL.md", "skill\n");
        workspace.commit(record("c1", 1), 10);

        workspace.clear();

        assertThat(root).isEmptyDirectory();
        assertThat(workspace.history()).isEmpty();
        workspace.prepare();
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    @Test
    void history_survivesReopeningTheWorkspace() throws IOException {
        workspace.prepare();
        write("MEMORY.md", "first\n");
        workspace.commit(record("c1", 1), 10);
        workspace.close();

        workspace = open(root);
        workspace.prepare();

        assertThat(workspace.history()).extracting(Consolidation::id).containsExactly("c1");
        assertThat(workspace.diff().isEmpty()).isTrue();
    }

    /** A record with {@code threads} selected inputs; an id {@code cN} finished N hours into the test day. */
    protected static ConsolidationRecord record(String id, int threads) {
        List<SelectedInput> selected = IntStream.rangeClosed(1, threads)
                .mapToObj(i -> new SelectedInput("thread-" + i, Instant.ofEpochSecond(1_700_000_000L + i)))
                .toList();
        int index = Integer.parseInt(id.replaceAll("\\D", ""));
        return new ConsolidationRecord(id, at(index), selected, "gpt-test", new TokenUsage(1000, 200, 300, 50));
    }

    /**
     * Prepares the workspace, then commits consolidations {@code c1}, {@code c2}, … keeping
     * {@code retention}, each with {@code MEMORY.md} holding the next of {@code memoryTexts} (one line).
     */
    protected void commitEach(int retention, String... memoryTexts) throws IOException {
        workspace.prepare();
        for (int i = 0; i < memoryTexts.length; i++) {
            write("MEMORY.md", memoryTexts[i] + "\n");
            workspace.commit(record("c" + (i + 1), 1), retention);
        }
    }

    protected static Instant at(int index) {
        return Instant.parse("2026-03-01T00:00:00Z").plusSeconds(3600L * index);
    }

    /**
     * The files under the root, outside hidden folders (a history's own store), whose text holds
     * {@code text}; paths relative to the root.
     */
    protected List<String> filesHolding(String text) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile)
                    .map(root::relativize)
                    .filter(path -> StreamSupport.stream(path.spliterator(), false)
                            .noneMatch(segment -> segment.toString().startsWith(".")))
                    .filter(path -> {
                        try {
                            return new String(Files.readAllBytes(root.resolve(path)), StandardCharsets.UTF_8)
                                    .contains(text);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .map(path -> path.toString().replace('\\', '/'))
                    .sorted()
                    .toList();
        }
    }

    protected void write(String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    private static String lines(int from, int to, int upper) {
        return IntStream.rangeClosed(from, to)
                .mapToObj(i -> i == upper ? "LINE" + i : "line" + i)
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
