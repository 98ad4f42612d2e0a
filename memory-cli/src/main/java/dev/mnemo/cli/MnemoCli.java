package dev.mnemo.cli;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryException;
import dev.mnemo.RolloutSources;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.openai.OpenAiLanguageModel;
import dev.mnemo.spi.MemoryEventListener;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code mnemo}: look inside and operate a Mnemo home from the command line. Each command opens
 * the home's engine (SQLite state, git workspace), does its work and closes it.
 *
 * <p>Exit codes: 0 done (for {@code run}: every phase succeeded or was skipped for a documented
 * reason); 1 the work failed (a phase failed, a missing home, a broken database or config names its
 * file); 2 bad usage, or a command that needs a model ran without one.
 *
 * <p>The global options ({@code --home}, the model options, {@code -q}, {@code -v}) are inherited:
 * they may come before or after the command ({@code mnemo status --home DIR}), and every command
 * has {@code --help}.
 */
@Command(name = "mnemo", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = MnemoCli.Version.class,
        description = "Long-term memory for AI agents: inspect and run the memory pipeline of a Mnemo home.")
public final class MnemoCli {

    /**
     * Every command's name, in the order help lists them. The commands are registered by
     * {@link #commandLine} rather than in the {@code @Command} annotation, so that a run builds
     * picocli's model (a reflective walk of each command class, its options and their types) only
     * for the commands it names, and loads no other command class ({@link #newCommand}).
     */
    private static final List<String> COMMANDS = List.of("status", "run", "demo", "instructions", "ls", "read",
            "search", "note", "threads", "logs", "history", "inputs", "rollback", "clear", "pending", "approve", "reject",
            "ui", "eval", "mcp", "help");

    /** Arguments that need every command: help lists them all. */
    private static final Set<String> HELP_ARGUMENTS = Set.of("-h", "--help", "help");

    /** The model variables a real run needs, for error messages. */
    static final String MODEL_HELP = """
            Set the model through environment variables (or --model/--base-url/--api):
              MNEMO_MODEL       the model name (required), e.g. gpt-4.1-mini, or llama3.1 on Ollama
              OPENAI_API_KEY    the API key (required for https://api.openai.com)
              OPENAI_BASE_URL   the API root, e.g. http://localhost:11434/v1 for Ollama (default OpenAI)
              MNEMO_MODEL_API   chat (Chat Completions, default) or responses
              MNEMO_CONTEXT_WINDOW  the model's context window in tokens (set it for local models)
              MNEMO_REASONING_EFFORT  none, low, medium or high (default: each phase's own;
                                dropped by itself for a model that rejects it)""";

    /** The values {@code --api} accepts. */
    static final List<String> API_VALUES = List.of("chat", "responses");

    /** The thread id the CLI runs the pipeline as; never a real thread, so nothing is excluded. */
    static final String CLI_THREAD_ID = "mnemo-cli";

    /** Creates the model from the (merged) environment; empty when none is configured. */
    @FunctionalInterface
    interface ModelFactory {
        Optional<LanguageModel> create(Map<String, String> environment);
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--home", scope = ScopeType.INHERIT, paramLabel = "DIR",
            description = "The Mnemo home (default: $MNEMO_HOME, else ~/.mnemo).")
    Path home;

    @Option(names = "--base-url", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "The model API root (overrides OPENAI_BASE_URL).")
    String baseUrl;

    @Option(names = "--model", scope = ScopeType.INHERIT, paramLabel = "NAME",
            description = "The model name (overrides MNEMO_MODEL).")
    String model;

    @Option(names = "--api", scope = ScopeType.INHERIT, paramLabel = "API",
            description = "chat or responses (overrides MNEMO_MODEL_API).")
    String api;

    @Option(names = "--reasoning-effort", scope = ScopeType.INHERIT, paramLabel = "EFFORT",
            description = "none, low, medium or high (overrides MNEMO_REASONING_EFFORT; none sends no reasoning parameter).")
    String reasoningEffort;

    @Option(names = {"-q", "--quiet"}, scope = ScopeType.INHERIT, description = "Print only results, no progress.")
    boolean quiet;

    @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
            description = "Debug logging and stack traces on stderr.")
    boolean verbose;

    private final Map<String, String> environment;
    private final String userHome;
    private final ModelFactory modelFactory;
    private final InputStream stdin;

    /** The CLI as {@code java -jar mnemo.jar} runs it: the process environment and an OpenAI-compatible model. */
    public MnemoCli() {
        this(System.getenv(), System.getProperty("user.home"), MnemoCli::modelFromEnvironment, System.in);
    }

    /** For tests: another environment, user home and model. */
    MnemoCli(Map<String, String> environment, String userHome, ModelFactory modelFactory) {
        this(environment, userHome, modelFactory, InputStream.nullInputStream());
    }

    /** For tests: another environment, user home, model and standard input. */
    MnemoCli(Map<String, String> environment, String userHome, ModelFactory modelFactory, InputStream stdin) {
        this.environment = Map.copyOf(environment);
        this.userHome = userHome;
        this.modelFactory = modelFactory;
        this.stdin = stdin;
    }

    /**
     * Runs the CLI and exits with its exit code. The {@linkplain StartupWarmUp warm-up} starts as
     * early as it may (after the log level: SLF4J reads it when it starts), so that it runs while
     * picocli builds the command model; the command itself waits for it.
     */
    public static void main(String[] args) {
        if (List.of(args).contains("-v") || List.of(args).contains("--verbose")) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "debug");
        }
        StartupWarmUp warmUp = StartupWarmUp.start(args);
        System.exit(commandLineFor(new MnemoCli(), warmUp, args).execute(args));
    }

    /**
     * The picocli command line with Mnemo's error handling: a message, no stack trace unless
     * {@code -v}; a mistyped command or option gets a suggestion only when one is close.
     */
    static CommandLine commandLine(MnemoCli cli) {
        return commandLine(cli, StartupWarmUp.none());
    }

    /** {@link #commandLine(MnemoCli)} whose commands run once {@code warmUp} has finished. */
    static CommandLine commandLine(MnemoCli cli, StartupWarmUp warmUp) {
        return commandLine(cli, warmUp, COMMANDS);
    }

    /**
     * The command line {@link #main} runs {@code args} with: only the commands that {@code args}
     * name (see {@link #commandsNamedIn}). Parsing is the same as with every command, since the one
     * that runs is always among them; a usage error at the top level still lists every command.
     */
    static CommandLine commandLineFor(MnemoCli cli, StartupWarmUp warmUp, String[] args) {
        return commandLine(cli, warmUp, commandsNamedIn(args));
    }

    /**
     * The command names that appear among {@code args}, in help's order; every command when none
     * does (a bare {@code mnemo}, {@code --version}, a mistyped command that needs suggestions) or
     * help is asked for. A command's own arguments that happen to be command names ({@code mnemo
     * search status}) only add a command that is never run.
     */
    static List<String> commandsNamedIn(String[] args) {
        List<String> given = List.of(args);
        if (given.stream().anyMatch(HELP_ARGUMENTS::contains)) {
            return COMMANDS;
        }
        List<String> named = COMMANDS.stream().filter(given::contains).toList();
        return named.isEmpty() ? COMMANDS : named;
    }

    private static CommandLine commandLine(MnemoCli cli, StartupWarmUp warmUp, List<String> commands) {
        CommandLine commandLine = new CommandLine(cli);
        commands.forEach(name -> commandLine.addSubcommand(name, newCommand(name)));
        CommandLine mcp = commandLine.getSubcommands().get("mcp");
        if (mcp != null) {
            McpCommand.dropInapplicableOptions(mcp.getCommandSpec());
        }
        commandLine.setExecutionStrategy(parsed -> {
            warmUp.await();
            return new CommandLine.RunLast().execute(parsed);
        });
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            if (e instanceof UsageProblem problem) {
                err.println("mnemo: " + problem.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            if (e instanceof CommandLine.ParameterException problem) {
                err.println(problem.getMessage());
                err.println("(`" + cmd.getCommandSpec().qualifiedName() + " --help` for usage)");
                return CommandLine.ExitCode.USAGE;
            }
            err.println("mnemo: " + describe(e));
            if (e instanceof Failure) {
                return CommandLine.ExitCode.SOFTWARE;
            }
            if (cli.verbose) {
                e.printStackTrace(err);
            } else {
                err.println("(run with -v for details)");
            }
            return CommandLine.ExitCode.SOFTWARE;
        });
        commandLine.setParameterExceptionHandler((e, args) -> {
            CommandLine cmd = e.getCommandLine();
            PrintWriter err = cmd.getErr();
            err.println(e.getMessage());
            List<String> close = e instanceof CommandLine.UnmatchedArgumentException unmatched
                    ? Suggestions.close(unmatched) : List.of();
            if (close.isEmpty()) {
                usageWithEveryCommand(cmd, cli).usage(err);
            } else {
                err.println("Did you mean: " + String.join(" or ", close) + "?");
                err.println("(`" + cmd.getCommandSpec().qualifiedName() + " --help` lists every option"
                        + (cmd.getSubcommands().isEmpty() ? "" : " and command") + ")");
            }
            err.flush();
            return cmd.getCommandSpec().exitCodeOnInvalidInput();
        });
        return commandLine;
    }

    /** {@code cmd}, or when it is the top level and not every command was registered, a full copy of it. */
    private static CommandLine usageWithEveryCommand(CommandLine cmd, MnemoCli cli) {
        if (cmd.getParent() != null || cmd.getSubcommands().size() == COMMANDS.size()) {
            return cmd;
        }
        return commandLine(new MnemoCli(cli.environment, cli.userHome, cli.modelFactory, cli.stdin));
    }

    /** A new instance of the command called {@code name}; a switch, so only that command's class is loaded. */
    private static Object newCommand(String name) {
        return switch (name) {
            case "status" -> new StatusCommand();
            case "run" -> new RunCommand();
            case "demo" -> new DemoCommand();
            case "instructions" -> new InstructionsCommand();
            case "ls" -> new MemoryFileCommands.Ls();
            case "read" -> new MemoryFileCommands.Read();
            case "search" -> new MemoryFileCommands.Search();
            case "note" -> new MemoryFileCommands.Note();
            case "threads" -> new ThreadsCommand();
            case "logs" -> new LogsCommand();
            case "history" -> new HistoryCommands.History();
            case "inputs" -> new InputsCommand();
            case "rollback" -> new HistoryCommands.Rollback();
            case "clear" -> new HistoryCommands.Clear();
            case "pending" -> new PendingCommands.Pending();
            case "approve" -> new PendingCommands.Approve();
            case "reject" -> new PendingCommands.Reject();
            case "ui" -> new UiCommand();
            case "eval" -> new EvalCommand();
            case "mcp" -> new McpCommand();
            case "help" -> new HelpCommand();
            default -> throw new IllegalArgumentException("no command called " + name);
        };
    }

    private static String describe(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof MemoryException || e instanceof Failure || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException) {
            return message;
        }
        return e.getClass().getSimpleName() + ": " + message;
    }

    // ---- what commands share -----------------------------------------------------------------

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** The environment the CLI runs in (the process's, or a test's). */
    Map<String, String> environment() {
        return environment;
    }

    /** The user's home folder (where {@code ~/.pgpass} is). */
    String userHome() {
        return userHome;
    }

    /** Prints {@code message} on stderr as a warning, also under {@code -q}: something the user must fix. */
    void warn(String message) {
        err().println("mnemo: warning: " + message);
        err().flush();
    }

    /**
     * The first line of standard input, without its line end: a password piped in
     * ({@code --password-stdin}). Empty input is a usage problem.
     */
    String readPasswordFromStdin() {
        try {
            String line = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8)).readLine();
            if (line == null || line.isEmpty()) {
                throw new UsageProblem("--password-stdin: standard input holds no password (pipe it in, e.g."
                        + " `printf %s \"$PW\" | mnemo … --password-stdin`)");
            }
            return line;
        } catch (IOException e) {
            throw new Failure("--password-stdin: cannot read standard input: " + e.getMessage());
        }
    }

    /** --home, else $MNEMO_HOME, else ~/.mnemo. */
    Path resolveHome() {
        if (home != null) {
            return home.toAbsolutePath().normalize();
        }
        String fromEnv = environment.get("MNEMO_HOME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv).toAbsolutePath().normalize();
        }
        return Path.of(userHome, ".mnemo").toAbsolutePath().normalize();
    }

    /** Where {@code demo} works: --home, else ~/.mnemo-demo (never the real home). */
    Path demoHome() {
        return home != null ? home.toAbsolutePath().normalize() : Path.of(userHome, ".mnemo-demo").toAbsolutePath();
    }

    /** The home's {@code config.toml} settings; a broken file fails naming it. */
    static MemoriesConfig loadConfig(Path home) {
        return MemoriesConfig.load(home.resolve("config.toml"));
    }

    /** The configured model, if any; a half-configured one is a usage problem naming the variable or flag. */
    Optional<LanguageModel> model() {
        if (api != null && !API_VALUES.contains(api)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--api must be one of " + String.join(", ", API_VALUES) + ", was '" + api + "'");
        }
        try {
            return modelFactory.create(modelEnvironment());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new UsageProblem("the model is not configured correctly: " + e.getMessage() + "\n" + MODEL_HELP);
        }
    }

    /** The model name the run uses ({@code --model}, else {@code MNEMO_MODEL}), for the history. */
    Optional<String> configuredModelName() {
        return Optional.ofNullable(modelEnvironment().get("MNEMO_MODEL")).filter(name -> !name.isBlank());
    }

    /** The environment with the model flags applied over it. */
    private Map<String, String> modelEnvironment() {
        Map<String, String> merged = new HashMap<>(environment);
        if (model != null) {
            merged.put("MNEMO_MODEL", model);
        }
        if (baseUrl != null) {
            merged.put("OPENAI_BASE_URL", baseUrl);
        }
        if (api != null) {
            merged.put("MNEMO_MODEL_API", api);
        }
        if (reasoningEffort != null) {
            merged.put("MNEMO_REASONING_EFFORT", reasoningEffort);
        }
        return merged;
    }

    /**
     * What identifies the configured model besides its name, for a report to record: the endpoint
     * ({@code base_url}, OpenAI's unless set), the {@code api}, and the reasoning effort, context
     * window and Azure API version when set. Never the API key or headers.
     */
    Map<String, String> modelSettings() {
        Map<String, String> env = modelEnvironment();
        Map<String, String> settings = new TreeMap<>();
        String baseUrl = env.getOrDefault("OPENAI_BASE_URL", "").strip();
        settings.put("base_url", baseUrl.isEmpty() ? OpenAiLanguageModel.DEFAULT_BASE_URL.toString()
                : baseUrl.replaceAll("/+$", ""));
        String api = env.getOrDefault("MNEMO_MODEL_API", "").strip().toLowerCase(Locale.ROOT);
        settings.put("api", api.isEmpty() ? API_VALUES.get(0) : api);
        putIfSet(settings, "reasoning_effort", env.get("MNEMO_REASONING_EFFORT"));
        putIfSet(settings, "context_window", env.get("MNEMO_CONTEXT_WINDOW"));
        putIfSet(settings, "azure_api_version", env.get("OPENAI_API_VERSION"));
        return settings;
    }

    private static void putIfSet(Map<String, String> settings, String key, String value) {
        if (value != null && !value.isBlank()) {
            settings.put(key, value.strip().toLowerCase(Locale.ROOT));
        }
    }

    /** The configured model's name (--model, else MNEMO_MODEL), for reports; "model" when unnamed. */
    String modelName() {
        return configuredModelName().orElse("model");
    }

    /** The model, or a usage problem (exit 2) saying which variables to set. */
    LanguageModel requireModel(String what) {
        return model().orElseThrow(() -> new UsageProblem("`" + what + "` needs a model, and none is configured.\n"
                + MODEL_HELP + "\nTo see what would run without a model, add --dry-run."));
    }

    /**
     * What an engine is opened with.
     *
     * @param model the model, or null for commands that call none
     * @param asOf evaluate windows, leases and backoffs at this instant instead of now
     * @param codexSessions Codex CLI session folders to scan, read-only
     * @param configTweak adjusts the home's settings (the demo widens its windows)
     * @param listener hears the pipeline's progress, or null
     */
    record EngineOptions(Path home, LanguageModel model, Optional<Instant> asOf, List<Path> codexSessions,
            UnaryOperator<MemoriesConfig> configTweak, MemoryEventListener listener) {

        static EngineOptions plain(Path home) {
            return new EngineOptions(home, null, Optional.empty(), List.of(), UnaryOperator.identity(), null);
        }
    }

    /** Opens the home's engine: its config, SQLite store and git workspace. A home that is a file fails. */
    static MemoryEngine openEngine(EngineOptions options) {
        requireFolderIfPresent(options.home());
        MemoryEngine.Builder builder = MemoryEngine.builder()
                .home(options.home())
                .config(options.configTweak().apply(loadConfig(options.home())));
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
     * Opens the engine of {@link #resolveHome()} for commands that call no model; the home may be
     * created (by {@code note}, {@code rollback}, {@code clear}).
     */
    MemoryEngine openEngine() {
        return openEngine(EngineOptions.plain(resolveHome()));
    }

    /**
     * Opens the engine of an existing home, for the read-only commands: a home that does not exist
     * is an error (exit 1) instead of being created empty.
     */
    MemoryEngine openExistingEngine() {
        Path home = resolveHome();
        if (!Files.exists(home)) {
            throw new Failure("the home " + home + " does not exist (check --home or $MNEMO_HOME;"
                    + " `mnemo run` or an agent creates it)");
        }
        return openEngine(EngineOptions.plain(home));
    }

    /**
     * {@link #openExistingEngine()} for the commands that only look ({@code status}, {@code logs},
     * {@code threads}, {@code inputs}): the engine is read-only, so an older home gets no new file
     * ({@code logs.sqlite}, {@code goals.sqlite}), no migration and no retention delete.
     */
    MemoryEngine openReadOnlyEngine() {
        Path home = resolveHome();
        if (!Files.exists(home)) {
            throw new Failure("the home " + home + " does not exist (check --home or $MNEMO_HOME;"
                    + " `mnemo run` or an agent creates it)");
        }
        requireFolderIfPresent(home);
        return MemoryEngine.builder().home(home).config(loadConfig(home)).readOnly(true).build();
    }

    private static void requireFolderIfPresent(Path home) {
        if (Files.exists(home) && !Files.isDirectory(home)) {
            throw new Failure("the home " + home + " is not a folder");
        }
    }

    /** The settings with the model this run uses named as the consolidation model, so history shows it. */
    static UnaryOperator<MemoriesConfig> namingModel(Optional<String> modelName) {
        return config -> config.consolidationModel().isPresent() || modelName.isEmpty() ? config
                : config.toBuilder().consolidationModel(modelName).build();
    }

    static Optional<LanguageModel> modelFromEnvironment(Map<String, String> environment) {
        String name = environment.get("MNEMO_MODEL");
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(OpenAiLanguageModel.fromEnvironment(environment));
    }

    /**
     * The command that starts this CLI, for tips a user can paste: the {@code mnemo} launcher the
     * build writes beside {@code mnemo.jar}, else {@code java -jar} with the jar's path, else
     * {@code mnemo} (not run from a jar).
     */
    static String launchCommand() {
        try {
            CodeSource source = MnemoCli.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null) {
                Path jar = Path.of(source.getLocation().toURI());
                if (Files.isRegularFile(jar) && jar.getFileName().toString().endsWith(".jar")) {
                    Path launcher = jar.resolveSibling("mnemo");
                    return Files.isExecutable(launcher) ? quoted(launcher) : "java -jar " + quoted(jar);
                }
            }
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            // not a file location: fall through to the plain name
        }
        return "mnemo";
    }

    private static String quoted(Path path) {
        String text = path.toString();
        return text.matches("[A-Za-z0-9_./:+@=-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
    }

    /** Mnemo's version, as the build wrote it into {@code mnemo-version.properties}. */
    static String version() {
        Properties properties = new Properties();
        try (InputStream in = MnemoCli.class.getResourceAsStream("mnemo-version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version", "unknown");
    }

    /** {@code --version}: the build's version, the one {@code mnemo mcp} reports too. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"mnemo " + version()};
        }
    }

    /** An expected failure the message explains in full: message, exit code 1, no "-v for details". */
    static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }

    /** A problem with how the command was called: message, exit code 2. */
    static final class UsageProblem extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageProblem(String message) {
            super(message);
        }
    }
}
