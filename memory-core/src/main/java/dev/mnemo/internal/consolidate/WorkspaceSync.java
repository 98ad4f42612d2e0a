package dev.mnemo.internal.consolidate;

import dev.mnemo.spi.Stage1Output;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2 step 5: writes the selection into the workspace as {@code rollout_summaries/<stem>.md}
 * (removing summaries no longer selected) and {@code raw_memories.md}, in the formats of Codex's
 * {@code storage.rs}, in stable thread-id order.
 */
final class WorkspaceSync {

    private static final Logger LOG = LoggerFactory.getLogger(WorkspaceSync.class);

    static final String RAW_MEMORIES = "raw_memories.md";
    static final String ROLLOUT_SUMMARIES = "rollout_summaries";

    private WorkspaceSync() {}

    static void sync(Path root, List<Stage1Output> selection) throws IOException {
        List<Stage1Output> ordered = selection.stream()
                .sorted((a, b) -> a.threadId().compareTo(b.threadId()))
                .toList();
        syncRolloutSummaries(root, ordered);
        AtomicFiles.writeIfChanged(root.resolve(RAW_MEMORIES), rawMemories(ordered));
    }

    /** The file stem of a memory's rollout summary. */
    static String stem(Stage1Output output) {
        return RolloutSummaryStem.of(output.threadId(), output.result().rolloutSlug(), output.sourceUpdatedAt());
    }

    private static void syncRolloutSummaries(Path root, List<Stage1Output> ordered) throws IOException {
        Path dir = root.resolve(ROLLOUT_SUMMARIES);
        if (Files.isSymbolicLink(dir)) {
            Files.delete(dir);
        }
        Files.createDirectories(dir);
        Set<String> retained = new HashSet<>();
        for (Stage1Output output : ordered) {
            retained.add(stem(output) + ".md");
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.md")) {
            for (Path entry : entries) {
                if (!retained.contains(entry.getFileName().toString())
                        && (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(entry))) {
                    Files.delete(entry);
                    LOG.debug("removed stale rollout summary {}", entry.getFileName());
                }
            }
        }
        for (Stage1Output output : ordered) {
            AtomicFiles.writeIfChanged(dir.resolve(stem(output) + ".md"), rolloutSummary(output));
        }
    }

    static String rolloutSummary(Stage1Output output) {
        StringBuilder text = new StringBuilder()
                .append("thread_id: ").append(output.threadId()).append('\n')
                .append("updated_at: ").append(rfc3339(output.sourceUpdatedAt())).append('\n')
                .append("rollout_path: ").append(output.rolloutPath()).append('\n')
                .append("cwd: ").append(output.cwd().map(Path::toString).orElse("")).append('\n');
        output.gitBranch().ifPresent(branch -> text.append("git_branch: ").append(branch).append('\n'));
        return text.append('\n').append(output.result().rolloutSummary()).append('\n').toString();
    }

    static String rawMemories(List<Stage1Output> ordered) {
        StringBuilder text = new StringBuilder("# Raw Memories\n\n");
        if (ordered.isEmpty()) {
            return text.append("No raw memories yet.\n").toString();
        }
        text.append("Merged stage-1 raw memories (stable ascending thread-id order):\n\n");
        for (Stage1Output output : ordered) {
            text.append("## Thread `").append(output.threadId()).append("`\n")
                    .append("updated_at: ").append(rfc3339(output.sourceUpdatedAt())).append('\n')
                    .append("cwd: ").append(output.cwd().map(Path::toString).orElse("")).append('\n')
                    .append("rollout_path: ").append(output.rolloutPath()).append('\n')
                    .append("rollout_summary_file: ").append(stem(output)).append(".md\n\n")
                    .append(output.result().rawMemory().trim()).append("\n\n");
        }
        return text.toString();
    }

    static String rfc3339(Instant instant) {
        return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));
    }
}
