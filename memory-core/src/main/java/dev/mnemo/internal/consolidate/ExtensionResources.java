package dev.mnemo.internal.consolidate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2 sync, last part: time-boxed extension resources ({@code extensions/<name>/resources/<ts>-*.md})
 * older than seven days are deleted, so the diff shows them as removed (Codex's
 * {@code prune_old_extension_resources}). Best effort: errors are logged and skipped.
 */
final class ExtensionResources {

    private static final Logger LOG = LoggerFactory.getLogger(ExtensionResources.class);

    /** Codex {@code extension_resources::RETENTION_DAYS}. */
    static final Duration RETENTION = Duration.ofDays(7);
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss");

    private ExtensionResources() {}

    /** @return resources deleted */
    static int pruneOld(Path root, Instant now) {
        Path extensions = root.resolve("extensions");
        if (!Files.isDirectory(extensions, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        Instant cutoff = now.minus(RETENTION);
        int deleted = 0;
        try (DirectoryStream<Path> names = Files.newDirectoryStream(extensions)) {
            for (Path extension : names) {
                if (Files.isDirectory(extension, LinkOption.NOFOLLOW_LINKS)
                        && Files.isRegularFile(extension.resolve("instructions.md"), LinkOption.NOFOLLOW_LINKS)) {
                    deleted += pruneResources(extension.resolve("resources"), cutoff);
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot list {}; extension resources not pruned", extensions, e);
        }
        return deleted;
    }

    private static int pruneResources(Path resources, Instant cutoff) {
        if (!Files.isDirectory(resources, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(resources, "*.md")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && name.length() >= 19) {
                    try {
                        Instant stamped = LocalDateTime.parse(name.substring(0, 19), TIMESTAMP).toInstant(ZoneOffset.UTC);
                        if (!stamped.isAfter(cutoff)) {
                            Files.delete(file);
                            deleted++;
                            LOG.info("pruned extension resource {} (older than {} days)", file, RETENTION.toDays());
                        }
                    } catch (DateTimeParseException e) {
                        // Not a time-boxed resource: kept.
                    } catch (IOException e) {
                        LOG.warn("cannot delete extension resource {}", file, e);
                    }
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot list {}", resources, e);
        }
        return deleted;
    }
}
