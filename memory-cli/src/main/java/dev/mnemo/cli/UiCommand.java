package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import dev.mnemo.console.MnemoConsole;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.postgres.PostgresBackend;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo ui}: serves the console over the home's engine on 127.0.0.1. Its first line on
 * standard output is {@code Mnemo console: http://127.0.0.1:<port>/?token=<token>}; it then serves
 * until stopped (Ctrl-C, or the thread running it is interrupted), and closes the engine.
 */
@Command(name = "ui", description = "Serve the console, a local web page to see and steer what is remembered;"
        + " print its address with an access token and serve until stopped (Ctrl-C).")
final class UiCommand implements Callable<Integer> {

    /** What the first line on standard output starts with, before the address. */
    static final String FIRST_LINE = "Mnemo console: ";

    @ParentCommand
    MnemoCli root;

    @Option(names = "--port", paramLabel = "N",
            description = "The port on 127.0.0.1 (default: a free one, chosen at start).")
    int port;

    @Option(names = "--postgres", paramLabel = "JDBC_URL",
            description = "Serve one tenant of a PostgreSQL backend instead of a home, e.g. "
                    + "jdbc:postgresql://db:5432/mnemo?user=mnemo&password=… (with --tenant).")
    String postgres;

    @Option(names = "--tenant", paramLabel = "ID", description = "The tenant to serve (with --postgres).")
    String tenant;

    @Override
    public Integer call() {
        if (port < 0 || port > 65_535) {
            throw new MnemoCli.UsageProblem("--port must be between 0 (a free one) and 65535, was " + port);
        }
        if ((postgres == null) != (tenant == null) || (tenant != null && tenant.isBlank())) {
            throw new MnemoCli.UsageProblem("--postgres and --tenant go together: the backend's JDBC URL and the"
                    + " tenant whose memory to serve");
        }
        if (postgres != null) {
            return serveTenant();
        }
        Path home = root.resolveHome();
        if (!Files.isDirectory(home)) {
            throw new MnemoCli.Failure("the home " + home + " does not exist (check --home or $MNEMO_HOME;"
                    + " `mnemo run` or an agent creates it)");
        }
        Optional<LanguageModel> model = root.model();
        MemoryEngine engine = MnemoCli.openEngine(new MnemoCli.EngineOptions(home, model.orElse(null),
                Optional.empty(), List.of(), MnemoCli.namingModel(root.configuredModelName()), null));
        return serve(engine, home.toString(), model.isPresent());
    }

    /**
     * The console over one tenant of a PostgreSQL backend: its engine keeps a local cache in a
     * temporary folder, deleted when the console stops.
     */
    private Integer serveTenant() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        try {
            dataSource.setURL(postgres);
        } catch (IllegalArgumentException e) {
            throw new MnemoCli.UsageProblem("--postgres is not a PostgreSQL JDBC URL: " + e.getMessage());
        }
        Path cache;
        try {
            cache = Files.createTempDirectory("mnemo-ui-");
        } catch (IOException e) {
            throw new MnemoCli.Failure("cannot create a local cache folder: " + e.getMessage());
        }
        Optional<LanguageModel> model = root.model();
        try (PostgresBackend backend = PostgresBackend.builder().dataSource(dataSource).build()) {
            MemoryEngine.Builder builder = backend.engineBuilder(tenant, cache);
            model.ifPresent(builder::model);
            return serve(builder.build(), "tenant " + tenant, model.isPresent());
        } finally {
            deleteQuietly(cache);
        }
    }

    private static void deleteQuietly(Path folder) {
        try (java.util.stream.Stream<Path> walk = Files.walk(folder)) {
            for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // a temporary folder; the system cleans it up eventually
        }
    }

    /** Serves {@code engine} until stopped, then closes it. */
    private Integer serve(MemoryEngine engine, String label, boolean hasModel) {
        boolean interrupted;
        try (engine; MnemoConsole console = start(engine, label)) {
            PrintWriter out = root.out();
            out.println(FIRST_LINE + console.url());
            out.flush();
            if (!root.quiet) {
                PrintWriter err = root.err();
                err.println("Serving " + label + " until stopped (Ctrl-C). Anyone with this address can change"
                        + " this memory: keep it to yourself.");
                if (!hasModel) {
                    err.println("No model is configured, so Refresh now extracts and consolidates nothing; everything"
                            + " else works. " + MnemoCli.MODEL_HELP.lines().findFirst().orElse(""));
                }
                err.flush();
            }
            interrupted = awaitStop(console);
        }
        if (interrupted) {
            Thread.currentThread().interrupt(); // kept for the caller, now that the engine is closed
        }
        return 0;
    }

    private MnemoConsole start(MemoryEngine engine, String label) {
        try {
            return MnemoConsole.builder().engine(engine).port(port).label(label).build().start();
        } catch (UncheckedIOException e) {
            throw new MnemoCli.Failure(e.getMessage() + (port == 0 ? "" : " (another --port, or 0 for a free one)"));
        }
    }

    /**
     * Blocks until the JVM shuts down (Ctrl-C: the hook closes the console and lets the engine close)
     * or the running thread is interrupted; returns true in the second case.
     */
    private static boolean awaitStop(MnemoConsole console) {
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            console.close();
            stopped.countDown();
        }, "mnemo-ui-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            stopped.await();
            return false;
        } catch (InterruptedException e) {
            return true;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it closes the console itself
            }
        }
    }
}
