package dev.mnemo.internal.consolidate;

import dev.mnemo.MemoryFileHeadings;
import dev.mnemo.ProjectKeys;
import dev.mnemo.spi.Stage1Output;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2 step 4: writes the selection into the workspace as {@code rollout_summaries/<stem>.md}
 * (removing summaries no longer selected) and {@code raw_memories.md}, in the formats of Codex's
 * {@code storage.rs}, in stable thread-id order. The lines naming each conversation come from
 * {@link MemoryFileHeadings}, which also reads them back for the folder's readers.
 *
 * <p>Scopes: a memory extracted in a project carries a {@code project: projects/<slug>/} line in its
 * recap's header and in its raw-memory entry, and {@code raw_memories.md} groups the memories by
 * scope (global first, then each project by folder name), each group in thread-id order. With no
 * project among the inputs both files are exactly Codex's.
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
                .append(MemoryFileHeadings.threadIdLine(output.threadId())).append('\n')
                .append("updated_at: ").append(rfc3339(output.sourceUpdatedAt())).append('\n')
                .append("rollout_path: ").append(output.rolloutPath()).append('\n')
                .append("cwd: ").append(output.cwd().map(Path::toString).orElse("")).append('\n');
        output.gitBranch().ifPresent(branch -> text.append("git_branch: ").append(branch).append('\n'));
        projectFolder(output).ifPresent(folder -> text.append("project: ").append(folder).append('\n'));
        return text.append('\n').append(output.result().rolloutSummary()).append('\n').toString();
    }

    static String rawMemories(List<Stage1Output> ordered) {
        StringBuilder text = new StringBuilder("# Raw Memories\n\n");
        if (ordered.isEmpty()) {
            return text.append("No raw memories yet.\n").toString();
        }
        Map<String, List<Stage1Output>> byProject = new TreeMap<>();
        List<Stage1Output> global = new ArrayList<>();
        for (Stage1Output output : ordered) {
            projectFolder(output).ifPresentOrElse(
                    folder -> byProject.computeIfAbsent(folder, f -> new ArrayList<>()).add(output),
                    () -> global.add(output));
        }
        if (byProject.isEmpty()) {
            text.append("Merged stage-1 raw memories (stable ascending thread-id order):\n\n");
            global.forEach(output -> entry(text, output));
            return text.toString();
        }
        text.append("Merged stage-1 raw memories, grouped by scope: sessions in no project first, then one group per")
                .append(" project (stable ascending thread-id order within each group).\n\n");
        if (!global.isEmpty()) {
            text.append("# Scope: no project\n\n");
            global.forEach(output -> entry(text, output));
        }
        byProject.forEach((folder, outputs) -> {
            text.append("# Scope: project ").append(folder).append(" (").append(outputs.get(0).project().orElseThrow())
                    .append(")\n\n");
            outputs.forEach(output -> entry(text, output));
        });
        return text.toString();
    }

    private static void entry(StringBuilder text, Stage1Output output) {
        text.append(MemoryFileHeadings.threadHeading(output.threadId())).append('\n')
                .append("updated_at: ").append(rfc3339(output.sourceUpdatedAt())).append('\n')
                .append("cwd: ").append(output.cwd().map(Path::toString).orElse("")).append('\n')
                .append("rollout_path: ").append(output.rolloutPath()).append('\n')
                .append("rollout_summary_file: ").append(stem(output)).append(".md\n");
        projectFolder(output).ifPresent(folder -> text.append("project: ").append(folder).append('\n'));
        text.append('\n').append(output.result().rawMemory().trim()).append("\n\n");
    }

    /** {@code projects/<slug>/} of a memory extracted in a project. */
    static Optional<String> projectFolder(Stage1Output output) {
        return output.project().map(key -> ProjectKeys.FOLDER + "/" + ProjectKeys.slug(key) + "/");
    }

    static String rfc3339(Instant instant) {
        return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));
    }
}
