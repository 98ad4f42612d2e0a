package dev.mnemo.internal.rollout;

import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.RolloutSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A folder of Codex rollouts as a read-only {@link RolloutSource}: Codex's {@code sessions/} tree
 * ({@code YYYY/MM/DD/rollout-*.jsonl}), a flat folder of {@code rollout-*.jsonl} files (Codex's
 * {@code archived_sessions/}, or rollouts copied somewhere), or both. Compressed
 * {@code rollout-*.jsonl.zst} files (Codex compresses rollouts idle for 7 days) are read like the
 * others. The first scan reads every rollout; later scans read only files whose modification time
 * or size changed since this object last saw them. Each scan logs (INFO) how many rollouts it found
 * where, or what it expected when it found none.
 */
public final class CodexSessionsSource implements RolloutSource {

    private static final Logger LOG = LoggerFactory.getLogger(CodexSessionsSource.class);

    private static final Pattern YEAR = Pattern.compile("\\d{4}");
    private static final Pattern MONTH_OR_DAY = Pattern.compile("\\d{2}");
    private static final Pattern ROLLOUT_NAME = Pattern.compile("rollout-.*\\.jsonl(\\.zst)?");

    private final Path sessionsDir;
    private final Map<Path, FileVersion> seen = new HashMap<>();
    private final Map<Path, String> unregistered = new HashMap<>();

    /** The modification time and size a file had when it was last read. */
    private record FileVersion(FileTime modified, long size) {}

    public CodexSessionsSource(Path sessionsDir) {
        this.sessionsDir = Objects.requireNonNull(sessionsDir, "sessionsDir").toAbsolutePath().normalize();
    }

    @Override
    public String name() {
        return "codex:" + sessionsDir;
    }

    @Override
    public synchronized List<ThreadInfo> scan() {
        if (!Files.isDirectory(sessionsDir)) {
            LOG.debug("Codex sessions folder {} does not exist; nothing to scan", sessionsDir);
            return List.of();
        }
        List<Path> files = rolloutFiles();
        logWhatWasFound(files);
        List<ThreadInfo> threads = new ArrayList<>();
        int unchanged = 0;
        for (Path file : files) {
            FileVersion version = version(file);
            if (version == null) {
                continue;
            }
            if (version.equals(seen.get(file))) {
                unchanged++;
                continue;
            }
            seen.put(file, version);
            readOne(file).ifPresent(threads::add);
        }
        seen.keySet().retainAll(files);
        unregistered.keySet().retainAll(files);
        // What this source read is not what the registry gained (a new process reads every file once):
        // ThreadSync logs the registry's real changes, and only when there are some.
        LOG.debug("Scanned {}: {} rollout(s) read, {} unchanged since this process last looked, {} not registrable",
                name(), threads.size(), unchanged, unregistered.size());
        return threads;
    }

    /** Rollouts seen by the last scan that could not be registered, with the reason for each. */
    @Override
    public synchronized Map<Path, String> unreadable() {
        return Map.copyOf(unregistered);
    }

    private Optional<ThreadInfo> readOne(Path file) {
        RolloutFiles.Inspection inspection = RolloutFiles.inspect(file);
        if (inspection.thread().isEmpty()) {
            String problem = inspection.problem().orElse("unreadable");
            unregistered.put(file, problem);
            LOG.warn("Not registering rollout {}: {}", file, problem);
        } else {
            unregistered.remove(file);
        }
        return inspection.thread();
    }

    /**
     * {@code YYYY/MM/DD/rollout-*.jsonl[.zst]} and {@code rollout-*.jsonl[.zst]} directly in the
     * folder, sorted by path.
     */
    private List<Path> rolloutFiles() {
        try (Stream<Path> walk = Files.find(sessionsDir, 4, (path, attrs) -> attrs.isRegularFile()
                && isRolloutPath(sessionsDir.relativize(path)))) {
            return walk.sorted().collect(Collectors.toList());
        } catch (IOException | java.io.UncheckedIOException e) {
            LOG.warn("Cannot list Codex sessions folder {}: {}", sessionsDir, e.toString());
            return List.of();
        }
    }

    private void logWhatWasFound(List<Path> files) {
        long flat = files.stream().filter(file -> file.getParent().equals(sessionsDir)).count();
        long dated = files.size() - flat;
        if (files.isEmpty()) {
            LOG.info("Found no rollouts in {}: expected rollout-*.jsonl or rollout-*.jsonl.zst files in YYYY/MM/DD "
                    + "subfolders (Codex's sessions folder) or directly in it", sessionsDir);
        } else {
            LOG.info("Found {} rollout(s) in {}: {} in YYYY/MM/DD subfolders, {} directly in the folder", files.size(),
                    sessionsDir, dated, flat);
        }
    }

    /** Whether {@code relative} (to the folder) is a rollout: {@code YYYY/MM/DD/rollout-…} or {@code rollout-…}. */
    static boolean isRolloutPath(Path relative) {
        if (relative.getNameCount() == 1) {
            return ROLLOUT_NAME.matcher(relative.toString()).matches();
        }
        return relative.getNameCount() == 4
                && YEAR.matcher(relative.getName(0).toString()).matches()
                && MONTH_OR_DAY.matcher(relative.getName(1).toString()).matches()
                && MONTH_OR_DAY.matcher(relative.getName(2).toString()).matches()
                && ROLLOUT_NAME.matcher(relative.getName(3).toString()).matches();
    }

    private static FileVersion version(Path file) {
        try {
            BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
            return new FileVersion(attrs.lastModifiedTime(), attrs.size());
        } catch (IOException e) {
            LOG.warn("Cannot read attributes of rollout {}: {}", file, e.toString());
            return null;
        }
    }
}
