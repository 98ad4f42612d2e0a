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
 * A Codex {@code sessions/} folder ({@code YYYY/MM/DD/rollout-*.jsonl}) as a read-only
 * {@link RolloutSource}. The first scan reads every rollout; later scans read only files whose
 * modification time or size changed since this object last saw them. Compressed
 * {@code .jsonl.zst} rollouts are skipped with a warning.
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
        if (threads.isEmpty()) {
            LOG.debug("Scanned {}: nothing new or changed, {} unchanged, {} not registrable", name(), unchanged,
                    unregistered.size());
        } else {
            LOG.info("Scanned {}: {} new or changed rollouts registered, {} unchanged, {} not registrable",
                    name(), threads.size(), unchanged, unregistered.size());
        }
        return threads;
    }

    /** Rollouts seen by the last scan that could not be registered, with the reason for each. */
    @Override
    public synchronized Map<Path, String> unreadable() {
        return Map.copyOf(unregistered);
    }

    private Optional<ThreadInfo> readOne(Path file) {
        if (RolloutReader.isCompressed(file)) {
            unregistered.put(file, "zstd-compressed rollouts are not supported yet");
            LOG.warn("Skipping compressed rollout {}: zstd-compressed rollouts are not supported yet", file);
            return Optional.empty();
        }
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

    /** {@code YYYY/MM/DD/rollout-*.jsonl[.zst]}, sorted by path (oldest day first). */
    private List<Path> rolloutFiles() {
        try (Stream<Path> walk = Files.find(sessionsDir, 4, (path, attrs) -> attrs.isRegularFile()
                && isRolloutPath(sessionsDir.relativize(path)))) {
            return walk.sorted().collect(Collectors.toList());
        } catch (IOException | java.io.UncheckedIOException e) {
            LOG.warn("Cannot list Codex sessions folder {}: {}", sessionsDir, e.toString());
            return List.of();
        }
    }

    static boolean isRolloutPath(Path relative) {
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
