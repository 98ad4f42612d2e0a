package dev.mnemo.cli;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.RolloutSources;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.spi.MemoryEventListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Finds the Mnemo home a command works on ({@code --home}, else {@code $MNEMO_HOME}, else
 * {@code ~/.mnemo}) and opens its engine (config, SQLite store, git workspace) the way the command
 * needs it: created when missing, existing only, or read-only. A home that is a file, or that must
 * exist and does not, fails naming it.
 */
final class HomeEngines {

    private HomeEngines() {}

    /**
     * What an engine is opened with.
     *
     * @param model the model, or null for commands that call none
     * @param asOf evaluate windows, leases and backoffs at this instant instead of now
     * @param codexSessions Codex CLI session folders to scan, read-only
     * @param configTweak adjusts the home's settings (the demo widens its windows), or null to leave
     *     them to the engine, which reads {@code config.toml} itself
     * @param listener hears the pipeline's progress, or null
     */
    record EngineOptions(Path home, LanguageModel model, Optional<Instant> asOf, List<Path> codexSessions,
            UnaryOperator<MemoriesConfig> configTweak, MemoryEventListener listener) {

        static EngineOptions plain(Path home) {
            return new EngineOptions(home, null, Optional.empty(), List.of(), null, null);
        }
    }

    /** {@code flag} (--home), else $MNEMO_HOME, else ~/.mnemo. */
    static Path resolveHome(Path flag, Map<String, String> environment, String userHome) {
        if (flag != null) {
            return flag.toAbsolutePath().normalize();
        }
        String fromEnv = environment.get("MNEMO_HOME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv).toAbsolutePath().normalize();
        }
        return Path.of(userHome, ".mnemo").toAbsolutePath().normalize();
    }

    /** Where {@code demo} works: {@code flag} (--home), else ~/.mnemo-demo (never the real home). */
    static Path demoHome(Path flag, String userHome) {
        return flag != null ? flag.toAbsolutePath().normalize() : Path.of(userHome, ".mnemo-demo").toAbsolutePath();
    }

    /** The home's {@code config.toml} settings; a broken file fails naming it. */
    static MemoriesConfig loadConfig(Path home) {
        return MemoriesConfig.load(home.resolve("config.toml"));
    }

    /** Opens the home's engine: its config, SQLite store and git workspace. A home that is a file fails. */
    static MemoryEngine openEngine(EngineOptions options) {
        requireFolderIfPresent(options.home());
        MemoryEngine.Builder builder = MemoryEngine.builder().home(options.home());
        if (options.configTweak() != null) {
            builder.config(options.configTweak().apply(loadConfig(options.home())));
        }
        if (options.model() != null) {
            builder.model(options.model());
        }
        if (options.asOf().isPresent()) {
            builder.clock(Clock.fixed(options.asOf().get(), ZoneOffset.UTC)).wallClock(Clock.systemUTC());
        }
        for (Path sessions : options.codexSessions()) {
            builder.rolloutSource(RolloutSources.codex(sessions));
        }
        if (options.listener() != null) {
            builder.listener(options.listener());
        }
        return builder.build();
    }

    /**
     * Opens the engine of an existing home, for the read-only commands: a home that does not exist
     * is an error (exit 1) instead of being created empty.
     */
    static MemoryEngine openExistingEngine(Path home) {
        requireExists(home);
        return openEngine(EngineOptions.plain(home));
    }

    /**
     * {@link #openExistingEngine} for the commands that only look ({@code status}, {@code logs},
     * {@code threads}, {@code inputs}): the engine is read-only, so an older home gets no new file
     * ({@code logs.sqlite}, {@code goals.sqlite}), no migration and no retention delete.
     */
    static MemoryEngine openReadOnlyEngine(Path home) {
        requireExists(home);
        requireFolderIfPresent(home);
        return MemoryEngine.builder().home(home).readOnly(true).build(); // it reads config.toml, once
    }

    private static void requireExists(Path home) {
        if (!Files.exists(home)) {
            throw new MnemoCli.Failure("the home " + home + " does not exist (check --home or $MNEMO_HOME;"
                    + " `mnemo run` or an agent creates it)");
        }
    }

    private static void requireFolderIfPresent(Path home) {
        if (Files.exists(home) && !Files.isDirectory(home)) {
            throw new MnemoCli.Failure("the home " + home + " is not a folder");
        }
    }
}
