package dev.mnemo.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.HistoryConfig;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code [history]} table of config.toml, and one read serving every table. */
class HistoryConfigLoadTest {

    @TempDir
    Path dir;

    private Path config(String text) throws Exception {
        Path file = dir.resolve("config.toml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void missingFileOrTable_givesCodexDefaults() throws Exception {
        assertThat(HistoryConfig.load(dir.resolve("absent.toml"))).isEqualTo(HistoryConfig.defaults());
        assertThat(HistoryConfig.load(config("[memories]\nuse_memories = true\n")))
                .isEqualTo(new HistoryConfig(HistoryConfig.Persistence.SAVE_ALL, OptionalLong.empty()));
    }

    @Test
    void historyTable_setsPersistenceAndMaxBytes_andLeavesMemoriesAlone() throws Exception {
        Path file = config("""
                [memories]
                max_unused_days = 7
                [history]
                persistence = "none"
                max_bytes = 4096
                """);
        assertThat(HistoryConfig.load(file))
                .isEqualTo(new HistoryConfig(HistoryConfig.Persistence.NONE, OptionalLong.of(4096)));
        assertThat(MemoriesConfig.load(file).maxUnusedDays()).isEqualTo(7);
    }

    @Test
    void oneRead_servesTheMemoriesHistoryAndLogsTables_fromOneParse() throws Exception {
        Path file = config("""
                [memories]
                max_unused_days = 7
                [history]
                max_bytes = 4096
                [logs]
                retention_days = 3
                """);
        TomlConfigLoader.ConfigFile read = TomlConfigLoader.read(file);
        Files.delete(file); // what the engine's build uses is the one parse

        assertThat(read.memories().maxUnusedDays()).isEqualTo(7);
        assertThat(read.history().maxBytes()).isEqualTo(OptionalLong.of(4096));
        assertThat(read.logsRetention()).contains(java.time.Duration.ofDays(3));
        assertThat(TomlConfigLoader.read(file).logsRetention()).isEmpty();
    }

    @Test
    void unknownKeyOrBadValue_failsNamingTheKeyAndFile() throws Exception {
        Path unknown = config("[history]\nmax_lines = 3\n");
        assertThatThrownBy(() -> HistoryConfig.load(unknown)).isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("history.max_lines").hasMessageContaining(unknown.toString());
        Path bad = config("[history]\npersistence = \"some\"\n");
        assertThatThrownBy(() -> HistoryConfig.load(bad)).isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("history.persistence").hasMessageContaining("save-all");
        Path negative = config("[history]\nmax_bytes = -1\n");
        assertThatThrownBy(() -> HistoryConfig.load(negative)).hasMessageContaining("history.max_bytes");
        Path wrongType = config("[history]\nmax_bytes = \"big\"\n");
        assertThatThrownBy(() -> HistoryConfig.load(wrongType)).hasMessageContaining("history.max_bytes").hasMessageContaining("must be an integer");
    }
}
