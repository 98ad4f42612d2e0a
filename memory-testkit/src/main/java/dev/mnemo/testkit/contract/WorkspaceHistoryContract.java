package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Consolidation;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryWorkspace;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The kept history of a {@link MemoryWorkspace}: rolling back to a consolidation, the diff of one
 * consolidation, dropping history from an entry (what a forget does), squashing it, clearing the
 * folder, and reopening. Part of {@link MemoryWorkspaceContract}, which a workspace's test extends.
 */
public abstract class WorkspaceHistoryContract extends MemoryWorkspaceContractSupport {

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
}
