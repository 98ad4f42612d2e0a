package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A home the engine cannot use: a corrupt database, a read-only folder, a {@code config.toml} whose
 * every value has the wrong type. Each gives a clear error naming the file, and nothing is overwritten.
 */
class BadHomeTest {

    @TempDir
    Path tmp;

    @Test
    void corruptDatabase_failsNamingTheFile_andLeavesItUntouched() throws IOException {
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        Path db = home.resolve("mnemo.sqlite");
        byte[] garbage = ("this is not a database; " + "\u0001garbage\u0002".repeat(2_000)).getBytes();
        Files.write(db, garbage);
        Map<String, String> before = snapshot(home);

        assertThatThrownBy(() -> build(home)).isInstanceOf(MemoryException.class)
                .hasMessageContaining(db.toString());
        assertThat(Files.readAllBytes(db)).isEqualTo(garbage);
        assertThat(snapshot(home)).isEqualTo(before);
    }

    @Test
    void truncatedDatabase_failsNamingTheFile_andLeavesItUntouched() throws IOException {
        Path home = tmp.resolve("home");
        TestHomes.seed(home, 2, "truncated");
        Path db = home.resolve("mnemo.sqlite");
        byte[] whole = Files.readAllBytes(db);
        byte[] header = java.util.Arrays.copyOf(whole, 100);
        for (int i = 16; i < 100; i++) {
            header[i] = (byte) 0xEE; // page size and the rest of the header destroyed
        }
        Files.write(db, header);
        Files.deleteIfExists(home.resolve("mnemo.sqlite-wal"));
        Files.deleteIfExists(home.resolve("mnemo.sqlite-shm"));

        assertThatThrownBy(() -> build(home)).isInstanceOf(MemoryException.class)
                .hasMessageContaining(db.toString());
        assertThat(Files.readAllBytes(db)).isEqualTo(header);
    }

    @Test
    void configOfWrongTypes_failsNamingTheFileAndAKey_andLeavesItUntouched() throws IOException {
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        Path config = home.resolve("config.toml");
        String text = """
                [memories]
                generate_memories = "yes"
                use_memories = 1
                dedicated_tools = [true]
                disable_on_external_context = { a = 1 }
                max_raw_memories_for_consolidation = "many"
                max_unused_days = 3.5
                max_rollout_age_days = true
                max_rollouts_per_startup = "2"
                min_rollout_idle_hours = [6]
                min_rate_limit_remaining_percent = "25%"
                extract_model = 42
                consolidation_model = false
                memory_sources = "cli"
                phase1_concurrency = 1979-05-27
                """;
        Files.writeString(config, text);

        assertThatThrownBy(() -> build(home)).isInstanceOf(MemoryException.class)
                .hasMessageContaining(config.toString())
                .hasMessageContaining("generate_memories");
        assertThat(Files.readString(config)).isEqualTo(text);
        try (Stream<Path> files = Files.list(home)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("config.toml");
        }
    }

    @Test
    void brokenToml_failsNamingTheFile() throws IOException {
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        Path config = home.resolve("config.toml");
        Files.writeString(config, "[memories\nmax_unused_days = = 3\n\u0000");
        assertThatThrownBy(() -> build(home)).isInstanceOf(MemoryException.class)
                .hasMessageContaining(config.toString());
    }

    @Test
    void readOnlyHome_failsNamingTheFolder_andWritesNothing() throws IOException {
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        Files.writeString(home.resolve("config.toml"), "[memories]\nmax_unused_days = 20\n");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assumeFalse(Files.isWritable(home), "running as root: permissions do not stop writes (see the /proc case)");
            Map<String, String> before = snapshot(home);
            assertThatThrownBy(() -> build(home)).isInstanceOf(MemoryException.class)
                    .hasMessageContaining(home.toString());
            assertThat(snapshot(home)).isEqualTo(before);
        } finally {
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void homeOnAReadOnlyFileSystem_failsNamingThePath() {
        // /proc refuses new folders even to root: a read-only home that holds for every user.
        Path home = Path.of("/proc/mnemo-home-" + ProcessHandle.current().pid());
        assertThatThrownBy(() -> build(home)).isInstanceOf(MemoryException.class)
                .hasMessageContaining(home.toString());
        assertThat(home).doesNotExist();
    }

    private static void build(Path home) {
        MemoryEngine.builder().home(home).model(FaultModel.unused()).build().close();
    }

    private static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.toList()) {
                files.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "dir"
                        : Files.readString(p, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        return files;
    }
}
