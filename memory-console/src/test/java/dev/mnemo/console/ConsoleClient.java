package dev.mnemo.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/**
 * A browser stand-in at the HTTP level (the JDK's {@link HttpClient}): it exchanges the console's
 * token for the session cookie once, as a browser does, then sends that cookie, and posts forms
 * with the page's CSRF token and the console's origin, or with whatever the test says instead.
 */
final class ConsoleClient {

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final URI base;
    private final URI tokenUrl;
    private String cookie;
    private String csrf;

    ConsoleClient(MnemoConsole console) {
        this.tokenUrl = console.url();
        this.base = URI.create("http://127.0.0.1:" + console.port());
    }

    /** The console's origin, as its pages send it. */
    String origin() {
        return base.toString();
    }

    /** Shows the token once and keeps the cookie it gets; returns that answer (a redirect). */
    HttpResponse<String> logIn() {
        HttpResponse<String> response = send(HttpRequest.newBuilder(tokenUrl).GET());
        cookie = response.headers().firstValue("Set-Cookie").map(c -> c.substring(0, c.indexOf(';')))
                .orElseThrow(() -> new AssertionError("no cookie for the token: " + response.statusCode()));
        return response;
    }

    /** GET with the session cookie (logging in first when needed). */
    HttpResponse<String> get(String pathAndQuery) {
        return send(request(pathAndQuery).GET());
    }

    /** GET of data, as the console's script reads it: with the cookie and the page's CSRF token in its header. */
    HttpResponse<String> getData(String pathAndQuery) {
        return send(request(pathAndQuery).header(AccessGuard.CSRF_HEADER, csrf()).GET());
    }

    /** GET with the cookie and one more header. */
    HttpResponse<String> getWithHeader(String pathAndQuery, String name, String value) {
        return send(request(pathAndQuery).header(name, value).GET());
    }

    /** GET with no cookie and no token. */
    HttpResponse<String> getAnonymously(String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create(base + pathAndQuery)).GET());
    }

    /** A page, parsed; fails unless it answered 200. */
    Document page(String pathAndQuery) {
        HttpResponse<String> response = get(pathAndQuery);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + pathAndQuery + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return Jsoup.parse(response.body(), base.toString());
    }

    /** POSTs a form as the console's own page does: cookie, origin, and the session's CSRF token. */
    HttpResponse<String> post(String path, String... fields) {
        Map<String, String> form = fields(fields);
        form.put(Params.CSRF, csrf());
        return postRaw(path, form, Map.of("Origin", origin()));
    }

    /** POSTs exactly {@code form} with exactly {@code headers} besides the cookie. */
    HttpResponse<String> postRaw(String path, Map<String, String> form, Map<String, String> headers) {
        HttpRequest.Builder request = request(path)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(encode(form)));
        headers.forEach(request::header);
        return send(request);
    }

    /** The {@code Cookie} header value of the session (logging in first when needed). */
    String cookie() {
        if (cookie == null) {
            logIn();
        }
        return cookie;
    }

    /** POSTs {@code form} with no cookie, from the console's origin. */
    HttpResponse<String> postRawAnonymously(String path, Map<String, String> form) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Origin", origin())
                .POST(HttpRequest.BodyPublishers.ofString(encode(form))));
    }

    /** The session's CSRF token, as its pages carry it. */
    String csrf() {
        if (csrf == null) {
            csrf = page("/").select("meta[name=mnemo-csrf]").attr("content");
        }
        return csrf;
    }

    static Map<String, String> fields(String... pairs) {
        Map<String, String> form = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            form.put(pairs[i], pairs[i + 1]);
        }
        return form;
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        if (cookie == null) {
            logIn();
        }
        return HttpRequest.newBuilder(URI.create(base + pathAndQuery)).header("Cookie", cookie);
    }

    private static String encode(Map<String, String> form) {
        return form.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
