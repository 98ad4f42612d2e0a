package dev.mnemo.spring.boot;

import dev.mnemo.Phase2Outcome;
import dev.mnemo.StartupReport;
import dev.mnemo.TenantHomes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Due work of users with a home each: one small marker file per user with possibly unextracted
 * conversations, in {@code <homes>/.mnemo-due/} (a name no user's home can have: home names never
 * start with a dot). The file holds the user id; its modification time is the last activity known
 * (written when the user's engine opens, and on every scheduled visit while it is open). A user is
 * due once that time is {@code window} (the idle time a conversation needs before extraction) in
 * the past. Listing the folder costs one directory read however many homes there are; users
 * without a marker are never looked at.
 *
 * <p>After a pass the marker goes when nothing is left (its time unchanged since it was read, so no
 * activity came meanwhile); it stays due when the pass hit the per-run limit, moves on by a window
 * when extractions failed or the pass was skipped, and moves to the end of the consolidation
 * cooldown when new memories wait for it.
 */
final class HomeMarkers implements DueTenants {

    static final String FOLDER = ".mnemo-due";

    private static final Logger LOG = LoggerFactory.getLogger(HomeMarkers.class);

    private final Path folder;
    private final Clock clock;
    private final Duration window;
    private final int maxPerPass;

    /**
     * @param window how long after the last activity a user's conversations can be extracted
     * @param maxPerPass {@code mnemo.memories.max-rollouts-per-startup}: a pass that extracted as
     *     many may have left more
     */
    HomeMarkers(Path homes, Clock clock, Duration window, int maxPerPass) {
        this.folder = homes.resolve(FOLDER);
        this.clock = clock;
        this.window = window;
        this.maxPerPass = maxPerPass;
    }

    @Override
    public void touch(String tenantId) {
        Path marker = marker(tenantId);
        try {
            if (!Files.exists(marker)) {
                Files.createDirectories(folder);
                Files.writeString(marker, tenantId, StandardCharsets.UTF_8);
            }
            Files.setLastModifiedTime(marker, FileTime.from(clock.instant()));
        } catch (IOException e) {
            LOG.warn("Could not mark user work as due in {}: their conversations are extracted only while their "
                    + "engine is open", folder, e);
        }
    }

    @Override
    public List<Due> due(Instant now, int limit) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        List<Due> due = new ArrayList<>();
        try (DirectoryStream<Path> markers = Files.newDirectoryStream(folder)) {
            for (Path marker : markers) {
                Instant stamp = stamp(marker).orElse(null);
                if (stamp != null && !stamp.plus(window).isAfter(now)) {
                    read(marker).ifPresent(tenant -> due.add(new Due(tenant, stamp)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the due-work markers in " + folder, e);
        }
        due.sort(Comparator.comparing(Due::stamp).thenComparing(Due::tenantId));
        return due.size() > limit ? List.copyOf(due.subList(0, limit)) : due;
    }

    @Override
    public void passed(Due due, StartupReport report, Optional<Instant> again) {
        Path marker = marker(due.tenantId());
        Optional<Instant> now = stamp(marker);
        if (now.isEmpty() || !now.get().equals(due.stamp())) {
            return; // activity since it was read: the marker stands for that now
        }
        try {
            boolean newMemories = report.phase1().succeeded() > 0;
            Phase2Outcome consolidation = report.phase2().outcome();
            if (report.skipped().isPresent() || report.phase1().failed() > 0) {
                Files.setLastModifiedTime(marker, FileTime.from(clock.instant()));
            } else if (report.phase1().claimed() >= maxPerPass) {
                return; // maybe more: due again at the next run
            } else if (newMemories && consolidation != Phase2Outcome.SUCCEEDED
                    && consolidation != Phase2Outcome.NO_WORKSPACE_CHANGES && again.isPresent()) {
                Files.setLastModifiedTime(marker, FileTime.from(again.get().minus(window)));
            } else {
                Files.deleteIfExists(marker);
            }
        } catch (IOException e) {
            LOG.warn("Could not update the due-work marker {}", marker, e);
        }
    }

    @Override
    public String describe() {
        return "users with due work marked in " + folder;
    }

    private Path marker(String tenantId) {
        return folder.resolve(TenantHomes.folderName(tenantId));
    }

    private static Optional<Instant> stamp(Path marker) {
        try {
            return Optional.of(Files.getLastModifiedTime(marker).toInstant());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<String> read(Path marker) {
        try {
            String tenant = Files.readString(marker, StandardCharsets.UTF_8);
            return tenant.isBlank() ? Optional.empty() : Optional.of(tenant);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            LOG.warn("Could not read the due-work marker {}", marker, e);
            return Optional.empty();
        }
    }
}
