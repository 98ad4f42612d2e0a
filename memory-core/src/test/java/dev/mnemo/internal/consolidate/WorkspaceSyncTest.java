package dev.mnemo.internal.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Codex's storage tests for the Phase 2 sync, and its file formats. */
class WorkspaceSyncTest {

    private static final String A = "0194f5a6-89ab-7cde-8123-456789abcdef";
    private static final String B = "0194f5a6-89ab-7cde-8123-456789abcdf0";

    @TempDir
    Path root;

    // Codex: sync_rollout_summaries_and_raw_memories_file_keeps_latest_memories_only
    @Test
    void keepsOnlyTheSelectedSummaries_removingLegacyAndStaleFilesButNotOtherFiles() throws IOException {
        Path summaries = Files.createDirectories(root.resolve("rollout_summaries"));
        Files.writeString(summaries.resolve(A + ".md"), "legacy thread-id-only name\n");
        Files.writeString(summaries.resolve("old-stem.md"), "stale\n");
        Files.writeString(summaries.resolve("keep.txt"), "not markdown: left alone\n");

        WorkspaceSync.sync(root, List.of(output(B, "raw B", "summary B", "slug-b", "main"),
                output(A, "raw A", "summary A", null, null)));

        try (Stream<Path> files = Files.list(summaries)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder(
                    "keep.txt", WorkspaceSync.stem(output(A, "", "", null, null)) + ".md",
                    WorkspaceSync.stem(output(B, "", "", "slug-b", null)) + ".md");
        }
        String raw = Files.readString(root.resolve("raw_memories.md"));
        assertThat(raw).startsWith("# Raw Memories\n\nMerged stage-1 raw memories (stable ascending thread-id order):\n\n");
        assertThat(raw.indexOf("## Thread `" + A + "`")).isLessThan(raw.indexOf("## Thread `" + B + "`"));
        assertThat(raw).contains("## Thread `" + A + "`\nupdated_at: 2026-11-01T00:00:00Z\ncwd: /work/repo\n"
                + "rollout_path: /sessions/" + A + ".jsonl\nrollout_summary_file: 2025-02-11T15-35-19-jqmb.md\n\nraw A\n\n");
    }

    @Test
    void rolloutSummaryFileHasTheHeaderLinesThenTheSummary_gitBranchOnlyWhenKnown() {
        assertThat(WorkspaceSync.rolloutSummary(output(A, "r", "the summary", null, "feature/x"))).isEqualTo(
                "thread_id: " + A + "\nupdated_at: 2026-11-01T00:00:00Z\nrollout_path: /sessions/" + A + ".jsonl\n"
                        + "cwd: /work/repo\ngit_branch: feature/x\n\nthe summary\n");
        assertThat(WorkspaceSync.rolloutSummary(output(A, "r", "s", null, null))).doesNotContain("git_branch");
    }

    @Test
    void emptySelectionSaysSo() throws IOException {
        WorkspaceSync.sync(root, List.of());
        assertThat(Files.readString(root.resolve("raw_memories.md"))).isEqualTo("# Raw Memories\n\nNo raw memories yet.\n");
    }

    private static Stage1Output output(String id, String raw, String summary, String slug, String branch) {
        return new Stage1Output(id, Instant.parse("2026-11-01T00:00:00Z"),
                new Stage1Result(raw, summary, Optional.ofNullable(slug)), Instant.parse("2026-11-01T01:00:00Z"), 0,
                Optional.empty(), Optional.empty(), Path.of("/sessions/" + id + ".jsonl"),
                Optional.of(Path.of("/work/repo")), Optional.ofNullable(branch));
    }
}
