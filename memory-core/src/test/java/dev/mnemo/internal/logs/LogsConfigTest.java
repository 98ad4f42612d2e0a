package dev.mnemo.internal.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryConfigurationException;
import dev.mnemo.MemoryEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code [logs]} table of config.toml: {@code retention_days}, read as strictly as the other tables. */
class LogsConfigTest {

    @TempDir
    Path dir;

    private Path config(String text) throws Exception {
        Path file = dir.resolve("config.toml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void missingFileOrTable_keepsCodexsTenDays() throws Exception {
        assertThat(LogsConfig.load(dir.resolve("absent.toml"))).isEqualTo(LogsConfig.DEFAULTS);
        assertThat(LogsConfig.load(config("[memories]\nuse_memories = true\n"))).isEqualTo(LogsConfig.DEFAULTS);
        assertThat(LogsConfig.DEFAULTS.retention()).isEqualTo(Duration.ofDays(10));
    }

    @Test
    void retentionDays_isRead_howeverTheTableHeaderIsSpaced() throws Exception {
        assertThat(LogsConfig.load(config("[logs]\nretention_days = 3\n")).retention()).isEqualTo(Duration.ofDays(3));
        assertThat(LogsConfig.load(config("[ logs ]\nretention_days = 30\n")).retention())
                .isEqualTo(Duration.ofDays(30));
        assertThat(LogsConfig.load(config("logs.retention_days = 7\n")).retention()).isEqualTo(Duration.ofDays(7));
    }

    @Test
    void unknownKeyOrBadValue_failsNamingTheKeyAndFile() throws Exception {
        Path zero = config("[logs]\nretention_days = 0\n");
        assertThatThrownBy(() -> LogsConfig.load(zero)).isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("logs.retention_days").hasMessageContaining(zero.toString())
                .hasMessageContaining("was 0");
        Path text = config("[logs]\nretention_days = \"ten\"\n");
        assertThatThrownBy(() -> LogsConfig.load(text)).hasMessageContaining("logs.retention_days")
                .hasMessageContaining("must be an integer");
        Path unknown = config("[logs]\nlevel = \"debug\"\n");
        assertThatThrownBy(() -> LogsConfig.load(unknown)).hasMessageContaining("unknown key logs.level");
    }

    @Test
    void anEngineOverAHomeWithABadLogsTable_failsToBuild_namingTheValue() throws Exception {
        config("[logs]\nretention_days = -2\n");

        assertThatThrownBy(() -> MemoryEngine.builder().home(dir).build())
                .isInstanceOf(MemoryConfigurationException.class).hasMessageContaining("logs.retention_days");
    }
}
