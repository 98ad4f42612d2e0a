package dev.mnemo.console;

import com.sun.net.httpserver.Headers;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may use the console, as Jupyter decides it: the random access token of the start-up URL,
 * exchanged once for a session cookie ({@code HttpOnly}, {@code SameSite=Strict}); each session
 * has its own CSRF token that every POST must carry; a POST must come from the console's own
 * origin (its {@code Origin}, else its {@code Referer}); and the {@code Host} header must name the
 * console, so a page whose domain was re-pointed at 127.0.0.1 (DNS rebinding) gets nothing.
 * Sessions are kept in memory, at most {@value #MAX_SESSIONS}, the least recently used dropped,
 * and end after the idle timeout (read on the console's clock). Data fetched by script (JSON) also
 * needs the session's CSRF token, in the {@value #CSRF_HEADER} header: the cookie alone reads no
 * memory data but the pages.
 */
final class AccessGuard {

    private static final Logger LOG = LoggerFactory.getLogger(AccessGuard.class);

    static final int MAX_SESSIONS = 64;
    /** The header a script's data read carries the session's CSRF token in. */
    static final String CSRF_HEADER = "X-Mnemo-Csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String token;
    private final Clock clock;
    private final Duration idleTimeout;
    private final String cookieName;
    private final Set<String> hosts;
    private final Set<String> origins;
    private final Map<String, ConsoleSession> sessions = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ConsoleSession> eldest) {
            return size() > MAX_SESSIONS;
        }
    };

    /**
     * @param token the access token of the start-up URL
     * @param bindAddress the address the console listens on
     * @param port the port it listens on; cookies are not kept per port, so the cookie's name
     *     carries it, and two consoles on one machine never read each other's cookie
     * @param clock when sessions are used and expire
     * @param idleTimeout how long a session may go unused before it ends
     */
    AccessGuard(String token, InetAddress bindAddress, int port, Clock clock, Duration idleTimeout) {
        this.token = token;
        this.clock = clock;
        this.idleTimeout = idleTimeout;
        this.cookieName = "mnemo_console_" + port;
        Set<String> names = new TreeSet<>(Set.of("127.0.0.1", "localhost", "[::1]"));
        names.add(hostLiteral(bindAddress));
        this.hosts = new TreeSet<>();
        this.origins = new TreeSet<>();
        for (String name : names) {
            hosts.add(name + ":" + port);
            origins.add("http://" + name + ":" + port);
        }
    }

    /** A new random token: 32 bytes from {@link SecureRandom}, URL-safe Base64. */
    static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether the {@code Host} header names this console. */
    boolean hostAllowed(Headers headers) {
        String host = headers.getFirst("Host");
        return host != null && hosts.contains(host.toLowerCase(java.util.Locale.ROOT));
    }

    /** Whether {@code candidate} is the access token (compared in constant time). */
    boolean isToken(String candidate) {
        return candidate != null && MessageDigest.isEqual(candidate.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }

    /** A new session, for a request that showed the token. */
    synchronized ConsoleSession newSession() {
        ConsoleSession session = new ConsoleSession(newToken(), newToken(), clock.instant());
        sessions.put(session.id(), session);
        return session;
    }

    /**
     * The live session of the request's cookie, now marked used.
     *
     * @throws HttpProblem 401 when the request has no session cookie, an unknown one, or one whose
     *     session went unused past the idle timeout (that session ends)
     */
    synchronized ConsoleSession session(Headers headers) {
        Instant now = clock.instant();
        boolean expired = false;
        for (String header : headers.getOrDefault("Cookie", java.util.List.of())) {
            for (String cookie : header.split(";")) {
                int eq = cookie.indexOf('=');
                if (eq > 0 && cookie.substring(0, eq).strip().equals(cookieName)) {
                    String id = cookie.substring(eq + 1).strip();
                    ConsoleSession session = sessions.get(id);
                    if (session != null && session.expired(now, idleTimeout)) {
                        sessions.remove(id);
                        LOG.info("a console session ended after more than {} unused", Times.span(idleTimeout));
                        expired = true;
                    } else if (session != null) {
                        session.touch(now);
                        return session;
                    }
                }
            }
        }
        throw new HttpProblem(401, (expired ? "this console session ended after " + Times.span(idleTimeout)
                + " unused: open the address `mnemo ui` printed again" : "this console needs its access token: open"
                + " the address `mnemo ui` printed") + " (http://127.0.0.1:<port>/?token=...)");
    }

    /** The {@code Set-Cookie} value that hands {@code session} to the browser. */
    String cookieFor(ConsoleSession session) {
        return cookieName + "=" + session.id() + "; Path=/; HttpOnly; SameSite=Strict";
    }

    /**
     * Refuses a state-changing request that does not come from a page of this console: its
     * {@code Origin} must be the console's; without one, its {@code Referer} must be a page of the
     * console; with neither, it is refused.
     *
     * @throws HttpProblem 403
     */
    void checkOrigin(Headers headers) {
        String origin = headers.getFirst("Origin");
        if (origin != null) {
            if (!origins.contains(origin.toLowerCase(java.util.Locale.ROOT))) {
                throw HttpProblem.forbidden("cross-site request refused: Origin " + origin + " is not this console");
            }
            return;
        }
        String referer = headers.getFirst("Referer");
        if (referer == null) {
            throw HttpProblem.forbidden("request refused: it names no Origin or Referer");
        }
        for (String allowed : origins) {
            if (referer.startsWith(allowed + "/")) {
                return;
            }
        }
        throw HttpProblem.forbidden("cross-site request refused: it comes from another site");
    }

    /**
     * Refuses a form whose CSRF token is not its session's.
     *
     * @throws HttpProblem 403
     */
    static void checkCsrf(ConsoleSession session, Params form) {
        if (!sameToken(form.get(Params.CSRF).orElse(""), session)) {
            throw HttpProblem.forbidden("the form's CSRF token is missing or stale: reload the page and try again");
        }
    }

    /**
     * Refuses a data read (JSON for the page's script) whose {@value #CSRF_HEADER} header is not
     * its session's CSRF token: the token is on the session's pages only, so a holder of the
     * cookie alone cannot fetch data.
     *
     * @throws HttpProblem 403
     */
    static void checkCsrfHeader(ConsoleSession session, Headers headers) {
        if (!sameToken(Optional.ofNullable(headers.getFirst(CSRF_HEADER)).orElse(""), session)) {
            throw HttpProblem.forbidden("this data is read by the console's own pages only: the request lacks the"
                    + " page's CSRF token (" + CSRF_HEADER + " header)");
        }
    }

    private static boolean sameToken(String sent, ConsoleSession session) {
        return MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
                session.csrf().getBytes(StandardCharsets.UTF_8));
    }

    private static String hostLiteral(InetAddress address) {
        String literal = address.getHostAddress();
        int zone = literal.indexOf('%');
        if (zone >= 0) {
            literal = literal.substring(0, zone);
        }
        return address instanceof Inet6Address ? "[" + literal + "]" : literal;
    }
}
