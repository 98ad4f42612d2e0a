package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import dev.mnemo.llm.LanguageModel;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
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
        versionProvider = Installation.Version.class,
        description = "Long-term memory for AI agents: inspect and run the memory pipeline of a Mnemo home.")
public final class MnemoCli {

    /** The model variables a real run needs, for error messages. */
    static final String MODEL_HELP = ModelOptions.HELP;

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
     *
     * @param args the command line, such as {@code ui} or {@code -v doctor}
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
        return commandLine(cli, warmUp, CommandRegistry.COMMANDS);
    }

    /**
     * The command line {@link #main} runs {@code args} with: only the commands that {@code args}
     * name (see {@link #commandsNamedIn}). Parsing is the same as with every command, since the one
     * that runs is always among them; a usage error at the top level still lists every command.
     */
    static CommandLine commandLineFor(MnemoCli cli, StartupWarmUp warmUp, String[] args) {
        return commandLine(cli, warmUp, commandsNamedIn(args));
    }

    /** The command names that appear among {@code args}: see {@link CommandRegistry#commandsNamedIn}. */
    static List<String> commandsNamedIn(String[] args) {
        return CommandRegistry.commandsNamedIn(args);
    }

    /**
     * The command line of {@code cli} with {@code commands}: (1) only those commands, (2) {@code mcp}
     * without the options it does not apply, (3) each command run once {@code warmUp} has finished,
     * (4) Mnemo's error reporting ({@link CliErrors}).
     */
    private static CommandLine commandLine(MnemoCli cli, StartupWarmUp warmUp, List<String> commands) {
        CommandLine commandLine = new CommandLine(cli);
        commands.forEach(name -> commandLine.addSubcommand(name, CommandRegistry.newCommand(name)));
        CommandLine mcp = commandLine.getSubcommands().get("mcp");
        if (mcp != null) {
            McpCommand.dropInapplicableOptions(mcp.getCommandSpec());
        }
        commandLine.setExecutionStrategy(parsed -> {
            warmUp.await();
            return new CommandLine.RunLast().execute(parsed);
        });
        commandLine.setExecutionExceptionHandler(CliErrors.onException(cli));
        commandLine.setParameterExceptionHandler(CliErrors.onBadArguments(cli));
        return commandLine;
    }

    /** A new CLI with this one's environment, user home, model factory and standard input, and no options parsed. */
    MnemoCli freshCopy() {
        return new MnemoCli(environment, userHome, modelFactory, stdin);
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
        return HomeEngines.resolveHome(home, environment, userHome);
    }

    /** Where {@code demo} works: --home, else ~/.mnemo-demo (never the real home). */
    Path demoHome() {
        return HomeEngines.demoHome(home, userHome);
    }

    /**
     * Opens the engine of {@link #resolveHome()} for commands that call no model; the home may be
     * created (by {@code note}, {@code rollback}, {@code clear}).
     */
    MemoryEngine openEngine() {
        return HomeEngines.openEngine(HomeEngines.EngineOptions.plain(resolveHome()));
    }

    /** The engine of an existing home, for the read-only commands: see {@link HomeEngines#openExistingEngine}. */
    MemoryEngine openExistingEngine() {
        return HomeEngines.openExistingEngine(resolveHome());
    }

    /** A read-only engine, for the commands that only look: see {@link HomeEngines#openReadOnlyEngine}. */
    MemoryEngine openReadOnlyEngine() {
        return HomeEngines.openReadOnlyEngine(resolveHome());
    }

    /** The model flags over the environment. */
    private ModelOptions modelOptions() {
        return new ModelOptions(environment, model, baseUrl, api, reasoningEffort);
    }

    /** The configured model, if any; a half-configured one is a usage problem naming the variable or flag. */
    Optional<LanguageModel> model() {
        return modelOptions().create(modelFactory, spec.commandLine());
    }

    /** The model name the run uses ({@code --model}, else {@code MNEMO_MODEL}), for the history. */
    Optional<String> configuredModelName() {
        return modelOptions().configuredModelName();
    }

    /** What identifies the configured model besides its name, for a report: see {@link ModelOptions#modelSettings}. */
    Map<String, String> modelSettings() {
        return modelOptions().modelSettings();
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

    /** An OpenAI-compatible model from {@code environment}; empty when {@code MNEMO_MODEL} is unset. */
    static Optional<LanguageModel> modelFromEnvironment(Map<String, String> environment) {
        return ModelOptions.modelFromEnvironment(environment);
    }

    /** Mnemo's version, as the build wrote it into {@code mnemo-version.properties}. */
    static String version() {
        return Installation.version();
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
