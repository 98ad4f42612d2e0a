package dev.mnemo.console;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's HTTP server (the JDK's {@code com.sun.net.httpserver}): every request passes the
 * {@link AccessGuard} and the parameter checks before a page sees it, and every answer carries the
 * security headers. The steps, in order, are those of {@link #dispatch}.
 */
final class ConsoleServer implements MnemoConsole {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleServer.class);

    /** Only the console's own script and style; no inline script or style, no frames, no foreign form targets. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none';"
            + " base-uri 'none'";
    static final int MAX_FORM_BYTES = 64 * 1024;
    private static final int HTTP_THREADS = 4;

    private final ConsoleBuilder.Settings settings;
    private final String token = AccessGuard.newToken();
    private final Refresh refresh;
    private final ExecutorService ownRefreshExecutor;
    private Map<String, Route> routes;
    private HttpServer server;
    private ExecutorService httpExecutor;
    private AccessGuard guard;
    private boolean closed;

    ConsoleServer(ConsoleBuilder.Settings settings) {
        this.settings = settings;
        this.ownRefreshExecutor = settings.executor().isPresent() ? null
                : Executors.newSingleThreadExecutor(daemonThreads("mnemo-console-refresh"));
        this.refresh = new Refresh(settings.engine(),
                settings.executor().orElse(ownRefreshExecutor), settings.clock());
    }

    @Override
    public synchronized MnemoConsole start() {
        if (server != null || closed) {
            throw new IllegalStateException(closed ? "the console is closed" : "the console is already started");
        }
        try {
            server = HttpServer.create(new InetSocketAddress(settings.bindAddress(), settings.port()), 64);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + settings.bindAddress().getHostAddress() + ":"
                    + settings.port() + ": " + e.getMessage(), e);
        }
        guard = new AccessGuard(token, settings.bindAddress(), server.getAddress().getPort(), settings.clock(),
                settings.sessionIdleTimeout());
        routes = Pages.routes(settings, refresh);
        httpExecutor = Executors.newFixedThreadPool(HTTP_THREADS, daemonThreads("mnemo-console-http"));
        server.setExecutor(httpExecutor);
        server.createContext("/", this::handle);
        server.start();
        LOG.info("Mnemo console serving on {}", base());
        return this;
    }

    @Override
    public synchronized URI url() {
        return URI.create(base() + "/?" + Params.TOKEN + "=" + token);
    }

    @Override
    public synchronized int port() {
        requireStarted();
        return server.getAddress().getPort();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (server != null) {
            server.stop(1);
            httpExecutor.shutdownNow();
        }
        if (ownRefreshExecutor != null) {
            ownRefreshExecutor.shutdownNow();
        }
    }

    private String base() {
        requireStarted();
        String host = settings.bindAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.getAddress().getPort();
    }

    private void requireStarted() {
        if (server == null) {
            throw new IllegalStateException("the console is not started: call start() first");
        }
    }

    private void handle(HttpExchange exchange) {
        Reply reply;
        try {
            reply = dispatch(exchange);
        } catch (HttpProblem problem) {
            reply = Pages.problem(problem);
        } catch (UnsupportedOperationException e) {
            reply = Pages.problem(new HttpProblem(501, "this engine cannot do that: " + e.getMessage()));
        } catch (RuntimeException e) {
            LOG.warn("console request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), e);
            reply = Pages.problem(new HttpProblem(500, "the console failed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage())));
        }
        send(exchange, reply);
    }

    /**
     * 1. The Host must name the console (403). 2. A GET with the access token gets a session cookie
     * and is sent on without the token; anything else needs a live session cookie, used within the
     * idle timeout (401). 3. The path must be a route (404) and the method its method (405). 4. Query
     * parameters are parsed and checked (400). 5. A data read (JSON for the page's script) must
     * carry the session's CSRF token in its header (403); a POST must come from the console's
     * origin (403), hold a form (415, 413, 400) and carry the session's CSRF token (403). 6. The
     * route answers.
     */
    private Reply dispatch(HttpExchange exchange) {
        Headers headers = exchange.getRequestHeaders();
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        String rawQuery = exchange.getRequestURI().getRawQuery();
        // 1. Host
        if (!guard.hostAllowed(headers)) {
            throw HttpProblem.forbidden("this console answers only to its own address");
        }
        // 2. Token or session
        Optional<String> offeredToken = rawTokenOf(rawQuery);
        if (offeredToken.isPresent() && method.equals("GET") && guard.isToken(offeredToken.get())) {
            ConsoleSession session = guard.newSession();
            exchange.getResponseHeaders().add("Set-Cookie", guard.cookieFor(session));
            return Reply.redirect(Pages.isPage(path) ? path : "/");
        }
        ConsoleSession session = guard.session(headers);
        // 3. Route and method
        Route route = routes.get(path);
        if (route == null) {
            throw HttpProblem.notFound("no such page");
        }
        if (!route.method().equals(method)) {
            exchange.getResponseHeaders().add("Allow", route.method());
            throw new HttpProblem(405, path + " takes " + route.method() + " only");
        }
        // 4. Query
        Params query = Params.parse(rawQuery);
        Params form = Params.none();
        // 5. Data read: CSRF header. POST: origin, form, CSRF
        if (route.data()) {
            AccessGuard.checkCsrfHeader(session, headers);
        }
        if (method.equals("POST")) {
            guard.checkOrigin(headers);
            form = Params.parse(readForm(exchange));
            AccessGuard.checkCsrf(session, form);
        }
        // 6. The page
        return route.handler().handle(new Request(session, query, form));
    }

    /** The raw {@code token} value of a query string, without checking anything else in it. */
    private static Optional<String> rawTokenOf(String rawQuery) {
        if (rawQuery == null) {
            return Optional.empty();
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.startsWith(Params.TOKEN + "=")) {
                return Optional.of(pair.substring(Params.TOKEN.length() + 1));
            }
        }
        return Optional.empty();
    }

    private static String readForm(HttpExchange exchange) {
        String type = Optional.ofNullable(exchange.getRequestHeaders().getFirst("Content-Type")).orElse("");
        if (!type.toLowerCase(java.util.Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            throw new HttpProblem(415, "the console takes HTML forms only (application/x-www-form-urlencoded)");
        }
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_FORM_BYTES + 1);
            if (body.length > MAX_FORM_BYTES) {
                throw new HttpProblem(413, "the form is too large");
            }
            return new String(body, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the form", e);
        }
    }

    private static void send(HttpExchange exchange, Reply reply) {
        try (exchange) {
            Headers out = exchange.getResponseHeaders();
            out.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            out.set("X-Content-Type-Options", "nosniff");
            out.set("X-Frame-Options", "DENY");
            out.set("Referrer-Policy", "same-origin");
            out.set("Cache-Control", "no-store");
            out.set("Cross-Origin-Opener-Policy", "same-origin");
            out.set("Cross-Origin-Resource-Policy", "same-origin");
            if (reply.status() == 401) {
                out.set("WWW-Authenticate", "Token realm=\"mnemo console\"");
            }
            if (reply.location() != null) {
                out.set("Location", reply.location());
            }
            if (reply.contentType() != null) {
                out.set("Content-Type", reply.contentType());
            }
            byte[] body = reply.body();
            exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream stream = exchange.getResponseBody()) {
                    stream.write(body);
                }
            }
        } catch (IOException e) {
            LOG.debug("the browser went away before the answer was sent: {}", e.getMessage());
        }
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * A page or action: the one method it answers to, and what answers.
     *
     * @param data true for data a page's script fetches (JSON): it needs the CSRF header too
     */
    record Route(String method, Handler handler, boolean data) {
        Route(String method, Handler handler) {
            this(method, handler, false);
        }
    }

    /** Answers a request that passed the guard. */
    @FunctionalInterface
    interface Handler {
        Reply handle(Request request);
    }
}
