package dev.mnemo.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The console's style sheet, script and icon, read from the jar once: nothing is fetched from
 * another site, so the console works offline and the Content-Security-Policy can allow
 * {@code 'self'} only.
 */
final class Assets {

    static final String CSS = "/assets/console.css";
    static final String JS = "/assets/console.js";
    static final String ICON = "/assets/mnemo.svg";

    private static final Map<String, Reply> FILES = Map.of(
            CSS, load("console.css", "text/css; charset=utf-8"),
            JS, load("console.js", "text/javascript; charset=utf-8"),
            ICON, load("mnemo.svg", "image/svg+xml"));

    private Assets() {}

    /** The routes of the assets, each answering GET with its file. */
    static Map<String, ConsoleServer.Route> routes() {
        Map<String, ConsoleServer.Route> routes = new java.util.HashMap<>();
        FILES.forEach((path, reply) -> routes.put(path, new ConsoleServer.Route("GET", request -> reply)));
        return routes;
    }

    private static Reply load(String name, String contentType) {
        try (InputStream in = Assets.class.getResourceAsStream("assets/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the console's asset " + name + " is missing from the jar");
            }
            return new Reply(200, contentType, in.readAllBytes(), null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the console's asset " + name, e);
        }
    }
}
