package dev.mnemo.internal.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.WorkspaceDiff;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkspaceDiffFileTest {

    @Test
    void noChangesRenderAsNone() {
        String text = WorkspaceDiffFile.render(new WorkspaceDiff(List.of(), ""));
        assertThat(text).startsWith("# Memory Workspace Diff\n\n").contains("## Status\n- none\n\n## Diff\n\n```diff\n```\n");
    }

    @Test
    void changesAreListedWithTheirStatusBeforeTheDiff() {
        String text = WorkspaceDiffFile.render(new WorkspaceDiff(List.of(
                new WorkspaceDiff.Change(WorkspaceDiff.Status.A, "rollout_summaries/a.md"),
                new WorkspaceDiff.Change(WorkspaceDiff.Status.D, "rollout_summaries/b.md")), "diff --git a/x b/x\n"));
        assertThat(text).contains("## Status\n- A rollout_summaries/a.md\n- D rollout_summaries/b.md\n\n## Diff\n\n"
                + "```diff\ndiff --git a/x b/x\n```\n");
    }

    @Test
    void diffIsCutAtFourMebibytesOnACharacterBoundary() {
        String big = "é".repeat(WorkspaceDiffFile.MAX_BYTES); // two bytes each
        String capped = WorkspaceDiffFile.capped(big);
        assertThat(capped).endsWith("\n[workspace diff truncated at 4194304 bytes]\n");
        String body = capped.substring(0, capped.indexOf("\n[workspace diff truncated"));
        assertThat(body.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(WorkspaceDiffFile.MAX_BYTES);
        assertThat(body).matches("é+");
    }

    @Test
    void smallDiffIsKeptWhole() {
        assertThat(WorkspaceDiffFile.capped("line\n")).isEqualTo("line\n");
    }
}
