package dev.mnemo.internal.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryFileHeadings;
import dev.mnemo.MemoryFileHeadings.Kind;
import dev.mnemo.MemoryFileHeadings.ThreadHeading;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The files Phase 2 writes and {@link MemoryFileHeadings} read each other: a change to the format
 * on either side fails here.
 */
class WorkspaceSyncHeadingsTest {

    private static final String A = "0194f5a6-89ab-7cde-8123-456789abcdef";
    private static final String B = "0194f5a6-89ab-7cde-8123-456789abcdf0";

    @Test
    void rolloutSummary_namesItsConversationOnce() {
        String summary = WorkspaceSync.rolloutSummary(output(A, Optional.of("/work/src/shop")));

        assertThat(MemoryFileHeadings.parse(summary)).containsExactly(new ThreadHeading(Kind.ROLLOUT_SUMMARY, A));
    }

    @Test
    void rawMemories_headEveryConversation_inThreadIdOrder() {
        String raw = WorkspaceSync.rawMemories(List.of(output(A, Optional.empty()), output(B, Optional.empty())));

        assertThat(MemoryFileHeadings.parse(raw)).containsExactly(new ThreadHeading(Kind.RAW_MEMORY, A),
                new ThreadHeading(Kind.RAW_MEMORY, B));
    }

    @Test
    void rawMemoriesGroupedByScope_headEveryConversation() {
        String raw = WorkspaceSync.rawMemories(List.of(output(A, Optional.empty()), output(B, Optional.of("/work/src/shop"))));

        assertThat(raw).contains("# Scope: project ");
        assertThat(MemoryFileHeadings.parse(raw)).extracting(ThreadHeading::threadId).containsExactly(A, B);
    }

    private static Stage1Output output(String id, Optional<String> project) {
        return new Stage1Output(id, Instant.parse("2026-11-01T00:00:00Z"),
                new Stage1Result("raw memory of " + id + "\nthread_id is not a heading here", "summary of " + id,
                        Optional.of("slug")),
                Instant.parse("2026-11-01T01:00:00Z"), 0, Optional.empty(), Optional.empty(),
                Path.of("/sessions/" + id + ".jsonl"), Optional.of(Path.of("/work/repo")), Optional.of("main"), project);
    }
}
