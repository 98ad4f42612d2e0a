package dev.mnemo.internal.read;

import dev.mnemo.ProjectKeys;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code projects/} folder of a memory folder: which projects have memory, and each one's
 * {@code memory_summary.md}, read through {@link StampedPath} so an unchanged folder costs one
 * {@code stat} per turn. A memory folder without {@code projects/} (Codex's, or one with global
 * memory only) costs nothing while the memory folder's own stamp is unchanged, else one
 * {@link java.io.File#exists()}.
 */
final class ProjectFolders {

    /** Summaries kept per project beyond which the least useful bookkeeping is simply dropped. */
    private static final int MAX_TRACKED_SUMMARIES = 1_024;
    private static final Logger LOG = LoggerFactory.getLogger(ProjectFolders.class);

    private final Path folder;
    private final Clock wallClock;
    private final StampedPath<List<String>> listing;
    private final Map<String, StampedPath<FileText>> summaries = new ConcurrentHashMap<>();

    ProjectFolders(Path memoryRoot, Clock wallClock) {
        this.folder = memoryRoot.resolve(ProjectKeys.FOLDER);
        this.wallClock = wallClock;
        this.listing = new StampedPath<>(folder, wallClock, ProjectFolders::list, memoryRoot);
    }

    /**
     * The slugs of the projects with a folder, sorted; empty when there is none or it cannot be read.
     *
     * @param root the memory folder's stamp ({@link StampedPath.Folder#stamp()}), or null
     */
    List<String> slugs(StampedPath.FolderStamp root) {
        try {
            return listing.getOrElse(List.of(), root);
        } catch (IOException e) {
            LOG.warn("Cannot list {} ({}); instructions name no project memory", folder, e.toString());
            return List.of();
        }
    }

    /**
     * The project's summary, stripped, or empty when it has none (no folder, no file, blank, not
     * UTF-8 or unreadable).
     *
     * @param root the memory folder's stamp ({@link StampedPath.Folder#stamp()}), or null
     */
    Optional<FileText> summary(String slug, StampedPath.FolderStamp root) {
        if (Collections.binarySearch(slugs(root), slug) < 0) {
            return Optional.empty();
        }
        if (summaries.size() > MAX_TRACKED_SUMMARIES) {
            summaries.clear();
        }
        StampedPath<FileText> file = summaries.computeIfAbsent(slug, s -> new StampedPath<>(
                folder.resolve(s).resolve(DeveloperInstructions.SUMMARY_FILE), wallClock, SummaryText::read));
        return SummaryText.get(file, null, "project " + slug);
    }

    private static List<String> list(Path projects) throws IOException {
        List<String> slugs = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(projects)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!name.startsWith(".") && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    slugs.add(name);
                }
            }
        }
        Collections.sort(slugs);
        return List.copyOf(slugs);
    }
}
