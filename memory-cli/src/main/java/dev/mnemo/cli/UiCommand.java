package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import dev.mnemo.console.MnemoConsole;
import dev.mnemo.llm.LanguageModel;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

    @Mixin
    TenantOption tenantOption;

    @Override
    public Integer call() {
        if (port < 0 || port > 65_535) {
            throw new MnemoCli.UsageProblem("--port must be between 0 (a free one) and 65535, was " + port);
        }
        if (tenantOption.given()) {
            return serveTenant();
        }
        Path home = root.resolveHome();
        if (!Files.isDirectory(home)) {
            throw new MnemoCli.Failure("the home " + home + " does not exist (check --home or $MNEMO_HOME;"
                    + " `mnemo run` or an agent creates it)");
        }
        Optional<LanguageModel> model = root.model();
        MemoryEngine engine = HomeEngines.openEngine(new HomeEngines.EngineOptions(home, model.orElse(null),
                Optional.empty(), List.of(), ModelOptions.namingModel(root.configuredModelName()), null));
        return serve(engine, home.toString(), model.isPresent());
    }

    /** The console over one tenant of a PostgreSQL backend (its local cache deleted when it stops). */
    private Integer serveTenant() {
        Optional<LanguageModel> model = root.model();
        try (TenantOption.OpenEngine opened = tenantOption.openTenant(root, model)) {
            return serve(opened.engine(), tenantOption.label(), model.isPresent());
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
                            + " else works.");
                    err.println(MnemoCli.MODEL_HELP);
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
