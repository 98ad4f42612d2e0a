package dev.mnemo.internal.logs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.mnemo.MemoryConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The {@code [logs]} table of {@code config.toml}: {@code retention_days} (default 10, Codex's
 * {@code LOG_RETENTION_DAYS}; at least 1). Read apart from {@code [memories]} so a home without a
 * {@code [logs]} table never starts the TOML parser for it.
 *
 * @param retention entries older than this are deleted when the engine opens its logs
 */
public record LogsConfig(Duration retention) {

    public static final LogsConfig DEFAULTS = new LogsConfig(ThreadLogWriter.DEFAULT_RETENTION);

    /** Reads {@code file}'s {@code [logs]} table; defaults when the file or the table is missing. */
    public static LogsConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return DEFAULTS;
        } catch (IOException e) {
            return DEFAULTS; // the [memories] loader reads the same file first and reports what is wrong with it
        }
        if (!text.contains("[logs]")) {
            return DEFAULTS;
        }
        JsonNode days;
        try {
            days = new TomlMapper().readTree(text).path("logs").path("retention_days");
        } catch (IOException e) {
            throw new MemoryConfigurationException(file + " is not valid TOML: " + e.getMessage(), e);
        }
        if (days.isMissingNode()) {
            return DEFAULTS;
        }
        if (!days.canConvertToInt() || !days.isIntegralNumber() || days.asInt() < 1) {
            throw new MemoryConfigurationException("logs.retention_days in " + file + " must be a whole number of days,"
                    + " at least 1, was " + days);
        }
        return new LogsConfig(Duration.ofDays(days.asInt()));
    }
}
