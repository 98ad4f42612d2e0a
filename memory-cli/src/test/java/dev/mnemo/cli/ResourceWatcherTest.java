package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link ResourceWatcher} on real files, polling every 10 ms. */
@Timeout(30)
class ResourceWatcherTest {

    /** Writes {@code file} as consolidation does: a finished temporary file renamed over it, so no poll sees half of it. */
    static void replace(Path file, String text) throws java.io.IOException {
        Path next = Files.writeString(file.resolveSibling(file.getFileName() + ".tmp"), text);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @TempDir
    Path dir;

    @Test
    void aFileRenamedOverTheWatchedOne_aRemovedOne_andACreatedOne_areEachReportedOnce() throws Exception {
        Path summary = Files.writeString(dir.resolve("memory_summary.md"), "v1\n");
        Path handbook = Files.writeString(dir.resolve("MEMORY.md"), "# Handbook\n");
        Path later = dir.resolve("later.md");
        BlockingQueue<String> changed = new LinkedBlockingQueue<>();
        try (ResourceWatcher watcher = new ResourceWatcher(Duration.ofMillis(10), changed::add)) {
            watcher.watchOnly(Map.of("summary", summary, "handbook", handbook, "later", later));

            replace(summary, "v2\n"); // the same size, another file
            assertThat(changed.poll(10, TimeUnit.SECONDS)).isEqualTo("summary");
            Files.delete(handbook);
            assertThat(changed.poll(10, TimeUnit.SECONDS)).isEqualTo("handbook");
            replace(later, "now here\n");
            assertThat(changed.poll(10, TimeUnit.SECONDS)).isEqualTo("later");
        }

        assertThat(changed).isEmpty();
    }

    @Test
    void aFileNoLongerWatched_isNotReported() throws Exception {
        Path summary = Files.writeString(dir.resolve("memory_summary.md"), "v1\n");
        Path handbook = Files.writeString(dir.resolve("MEMORY.md"), "# Handbook\n");
        BlockingQueue<String> changed = new LinkedBlockingQueue<>();
        try (ResourceWatcher watcher = new ResourceWatcher(Duration.ofMillis(10), changed::add)) {
            watcher.watchOnly(Map.of("summary", summary, "handbook", handbook));
            watcher.watchOnly(Map.of("handbook", handbook));

            replace(summary, "v2, longer\n");
            replace(handbook, "# Handbook, longer\n");

            assertThat(changed.poll(10, TimeUnit.SECONDS)).isEqualTo("handbook");
        }
        assertThat(changed).isEmpty();
    }
}
