package dev.mnemo.internal.logs;

import dev.mnemo.internal.config.TomlConfigLoader;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The {@code [logs]} table of {@code config.toml}: {@code retention_days} (default 10, Codex's
 * {@code LOG_RETENTION_DAYS}; from 1 to 36,500). Parsed as the other tables are
 * ({@link TomlConfigLoader}): an unknown key or a bad value fails, naming it and the file.
 *
 * @param retention entries older than this are deleted when the engine opens its logs
 */
public record LogsConfig(Duration retention) {

    public static final LogsConfig DEFAULTS = new LogsConfig(ThreadLogWriter.DEFAULT_RETENTION);

    /**
     * Reads {@code file}'s {@code [logs]} table; defaults when the file or the table is missing.
     *
     * @throws dev.mnemo.MemoryConfigurationException when the table has an unknown key or a bad
     *     value, or the file cannot be parsed
     */
    public static LogsConfig load(Path file) {
        return from(TomlConfigLoader.read(file));
    }

    /** The {@code [logs]} table of a {@code config.toml} already read; defaults when it has none. */
    public static LogsConfig from(TomlConfigLoader.ConfigFile file) {
        return file.logsRetention().map(LogsConfig::new).orElse(DEFAULTS);
    }
}
