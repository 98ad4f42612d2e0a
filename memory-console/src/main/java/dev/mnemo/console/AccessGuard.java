package dev.mnemo.console;

import com.sun.net.httpserver.Headers;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who may use the console, as Jupyter decides it: the random access token of the start-up URL,
 * exchanged once for a session cookie ({@code HttpOnly}, {@code SameSite=Strict}); each session
 * has its own CSRF token that every POST must carry; a POST must come from the console's own
 * origin (its {@code Origin}, else its {@code Referer}); and the {@code Host} header must name the
 * console, so a page whose domain was re-pointed at 127.0.0.1 (DNS rebinding) gets nothing.
 * Sessions are kept in memory, at most {@value #MAX_SESSIONS}, the least recently used dropped.
 */
final class AccessGuard {

    static final int MAX_SESSIONS = 64;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String token;
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
     */
    AccessGuard(String token, InetAddress bindAddress, int port) {
        this.token = token;
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
        ConsoleSession session = new ConsoleSession(newToken(), newToken());
        sessions.put(session.id(), session);
        return session;
    }

    /** The session of the request's cookie, if it has a live one. */
    synchronized Optional<ConsoleSession> session(Headers headers) {
        for (String header : headers.getOrDefault("Cookie", java.util.List.of())) {
            for (String cookie : header.split(";")) {
                int eq = cookie.indexOf('=');
                if (eq > 0 && cookie.substring(0, eq).strip().equals(cookieName)) {
                    ConsoleSession session = sessions.get(cookie.substring(eq + 1).strip());
                    if (session != null) {
                        return Optional.of(session);
                    }
                }
            }
        }
        return Optional.empty();
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
        String sent = form.get(Params.CSRF).orElse("");
        if (!MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
                session.csrf().getBytes(StandardCharsets.UTF_8))) {
            throw HttpProblem.forbidden("the form's CSRF token is missing or stale: reload the page and try again");
        }
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
