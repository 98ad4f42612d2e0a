package dev.mnemo.console;

import dev.mnemo.MemoryEngine;
import java.net.InetAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * A local web console over one {@link MemoryEngine}: the pipeline's state, the memory folder
 * rendered, each memory's provenance, the consolidation history with rollback, the conversations,
 * the approval queue and "refresh now". What {@code mnemo ui} serves.
 *
 * <pre>{@code
 * try (MnemoConsole console = MnemoConsole.builder().engine(engine).build().start()) {
 *     System.out.println("Mnemo console: " + console.url());   // http://127.0.0.1:<port>/?token=<token>
 *     ...
 * }
 * }</pre>
 *
 * <p>Security, because the console can change and delete memory: it binds to {@code 127.0.0.1}
 * unless told otherwise; every request needs the random access token of {@link #url()} once, which
 * is exchanged for an {@code HttpOnly}, {@code SameSite=Strict} session cookie; every change is a
 * POST carrying the session's CSRF token from a page of the console's own origin; every memory
 * text is HTML-encoded and Markdown is rendered with raw HTML escaped and only {@code http},
 * {@code https} and {@code mailto} links; a Content-Security-Policy allows only the console's own
 * script and style; and no parameter names a file: memory files are read through the engine's
 * memory tools, confined to the memory folder.
 *
 * <p>The console never closes the engine; close the engine after the console.
 */
public interface MnemoConsole extends AutoCloseable {

    /** How long a browser session may go unused before it ends, unless the builder says otherwise. */
    Duration DEFAULT_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);

    /**
     * A builder; only {@link Builder#engine} is required.
     *
     * @return a new builder with every setting at its default
     */
    static Builder builder() {
        return new ConsoleBuilder();
    }

    /**
     * Binds the port and starts serving; returns this console.
     *
     * @return this console, now serving
     * @throws IllegalStateException when it was started or closed before
     * @throws java.io.UncheckedIOException when the port cannot be bound (taken, or not allowed)
     */
    MnemoConsole start();

    /**
     * The address to open, with the access token: {@code http://127.0.0.1:<port>/?token=<token>}.
     * Anyone who has it can change this engine's memory; print it only to its owner.
     *
     * @return the start-up address, token included
     * @throws IllegalStateException before {@link #start()}
     */
    URI url();

    /**
     * The port it serves on (the one chosen when {@link Builder#port} was 0).
     *
     * @return the TCP port it is bound to, 1 to 65535
     * @throws IllegalStateException before {@link #start()}
     */
    int port();

    /** Stops serving, waits a moment for requests in flight, and stops a refresh it started from running on. */
    @Override
    void close();

    /** Configures a {@link MnemoConsole}; {@link #build()} checks everything at once. */
    interface Builder {

        /**
         * The engine to show and steer. Required.
         *
         * @param engine the engine; the console never closes it
         * @return this builder
         */
        Builder engine(MemoryEngine engine);

        /**
         * The TCP port, 1 to 65535, or 0 (the default) for a free one chosen when it starts.
         *
         * @param port the port, 0 to 65535
         * @return this builder
         */
        Builder port(int port);

        /**
         * The address to listen on; default {@code 127.0.0.1}, so that only this machine can reach
         * it. Another address exposes the console to whoever can reach it and holds the token.
         *
         * @param address the local address to bind
         * @return this builder
         */
        Builder bindAddress(InetAddress address);

        /**
         * What the page header names, such as the home's folder or a tenant; default {@code "Mnemo"}.
         *
         * @param label the text shown in the header; HTML-encoded when shown
         * @return this builder
         */
        Builder label(String label);

        /**
         * Runs "refresh now" (Phase 1 and Phase 2 at once, {@link dev.mnemo.MemoryAdmin#consolidateNow()}).
         * Default: one daemon thread of the console's own, stopped by {@link MnemoConsole#close()};
         * a given executor is not shut down.
         *
         * @param executor where "refresh now" runs; the console does not shut it down
         * @return this builder
         */
        Builder executor(ExecutorService executor);

        /**
         * The clock for how long a refresh has run, how long ago things happened and when a session
         * expires; default the system UTC clock.
         *
         * @param clock the clock to read the time from
         * @return this builder
         */
        Builder clock(Clock clock);

        /**
         * How long a browser session may go unused before it ends (then the start-up address must be
         * opened again); default {@link MnemoConsole#DEFAULT_SESSION_IDLE_TIMEOUT}, 30 minutes.
         *
         * @param timeout the longest idle time of a session; positive
         * @return this builder
         * @throws IllegalArgumentException when not positive
         */
        Builder sessionIdleTimeout(Duration timeout);

        /**
         * The console, not yet serving: {@link MnemoConsole#start()} binds the port.
         *
         * @return a console that is not yet started
         * @throws NullPointerException when no engine was given
         */
        MnemoConsole build();
    }
}
