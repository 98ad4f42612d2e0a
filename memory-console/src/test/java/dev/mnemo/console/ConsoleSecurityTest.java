package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's security at the HTTP level, with the JDK's HTTP client against a real console over
 * a real home: the token and its cookie, CSRF, the origin check, GET never changing anything, no
 * parameter reaching a file outside the memory folder, and memory text that stays inert.
 */
class ConsoleSecurityTest {

    private static final String SECRET = "TOP-SECRET-7f3a";

    /** Every route, with the method it answers to. */
    private static final List<String> GET_ROUTES = List.of("/", "/memory", "/memory?path=MEMORY.md", "/provenance",
            "/history", "/conversations", "/pending", "/refresh", "/refresh/status", "/assets/console.css",
            "/assets/console.js", "/assets/mnemo.svg", "/no-such-page");
    private static final List<String> POST_ROUTES = List.of("/history/rollback", "/conversations/disable",
            "/conversations/enable", "/conversations/forget", "/pending/approve", "/pending/reject", "/refresh/start");

    @TempDir
    Path temp;

    private ConsoleHome home;
    private ConsoleClient client;

    @BeforeEach
    void openConsole() throws IOException {
        Files.writeString(temp.resolve("secret.txt"), SECRET);
        home = new ConsoleHome(temp.resolve("home")).withHistory();
        client = new ConsoleClient(home.console);
    }

    @AfterEach
    void closeConsole() {
        home.close();
    }

    @Test
    void listensOnLoopbackOnly_byDefault() throws IOException {
        assertThat(home.console.url().getHost()).isEqualTo("127.0.0.1");
        Optional<InetAddress> other = NetworkInterface.networkInterfaces()
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress()).findFirst();
        if (other.isPresent()) {
            try (Socket socket = new Socket()) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> socket.connect(
                        new InetSocketAddress(other.get(), home.console.port()), 2_000))
                        .isInstanceOf(ConnectException.class);
            }
        }
    }

    @Test
    void withoutTokenOrCookie_everyRequestIs401_andShowsNoMemory() {
        for (String route : GET_ROUTES) {
            HttpResponse<String> response = client.getAnonymously(route);
            assertThat(response.statusCode()).as("GET %s", route).isEqualTo(401);
            assertThat(response.body()).as("GET %s", route).doesNotContain("tabs");
        }
        ConsoleClient stranger = new ConsoleClient(home.console);
        for (String route : POST_ROUTES) {
            HttpResponse<String> response = stranger.postRawAnonymously(route, Map.of("thread", "chat-tabs"));
            assertThat(response.statusCode()).as("POST %s", route).isEqualTo(401);
        }
        assertThat(home.engine.threads().get("chat-tabs")).isPresent();
    }

    @Test
    void wrongToken_is401_andGetsNoCookie() {
        HttpResponse<String> response = client.getAnonymously("/?token=" + "A".repeat(43));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    void token_isExchangedForAnHttpOnlySameSiteStrictCookie_andTheRedirectDropsTheToken() {
        HttpResponse<String> exchange = client.logIn();

        assertThat(exchange.statusCode()).isEqualTo(303);
        assertThat(exchange.headers().firstValue("Location")).hasValue("/");
        assertThat(exchange.headers().firstValue("Set-Cookie")).hasValueSatisfying(cookie -> assertThat(cookie)
                .startsWith("mnemo_console_" + home.console.port() + "=")
                .contains("; HttpOnly").contains("; SameSite=Strict").contains("; Path=/")
                .doesNotContain(home.console.url().getQuery().substring("token=".length())));
        assertThat(client.get("/").statusCode()).isEqualTo(200);
        assertThat(client.get("/memory").body()).contains("tabs");
    }

    @Test
    void everyPage_hasAStrictContentSecurityPolicy_andNoInlineScriptOrStyle() {
        for (String route : List.of("/", "/memory", "/provenance", "/history", "/conversations", "/pending",
                "/refresh", "/provenance?thread=chat-tabs")) {
            HttpResponse<String> response = client.get(route);
            assertThat(response.statusCode()).as(route).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Security-Policy")).as(route).hasValueSatisfying(csp ->
                    assertThat(csp).contains("default-src 'none'", "script-src 'self'", "style-src 'self'",
                            "frame-ancestors 'none'", "form-action 'self'").doesNotContain("unsafe"));
            assertThat(response.headers().firstValue("X-Content-Type-Options")).as(route).hasValue("nosniff");
            Document page = org.jsoup.Jsoup.parse(response.body());
            assertThat(page.select("script")).as(route).allSatisfy(script ->
                    assertThat(script.attr("src")).isEqualTo("/assets/console.js"));
            assertThat(page.select("[style]")).as(route).isEmpty();
            assertThat(page.select("style")).as(route).isEmpty();
            assertThat(page.getAllElements().stream().flatMap(e -> e.attributes().asList().stream())
                    .filter(a -> a.getKey().startsWith("on"))).as(route).isEmpty();
            assertThat(page.select("link[href^=http], script[src^=http], img[src^=http]")).as(route).isEmpty();
        }
    }

    @Test
    void post_withoutTheCsrfToken_isRefused_andForgetsNothing() {
        HttpResponse<String> response = client.postRaw("/conversations/forget", Map.of("thread", "chat-tabs"),
                Map.of("Origin", client.origin()));

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(home.engine.threads().get("chat-tabs")).isPresent();
    }

    @Test
    void post_withAnotherSessionsCsrfToken_isRefused() {
        String othersToken = new ConsoleClient(home.console).csrf();

        HttpResponse<String> response = client.postRaw("/conversations/forget",
                Map.of("thread", "chat-tabs", "csrf", othersToken), Map.of("Origin", client.origin()));

        assertThat(othersToken).isNotEqualTo(client.csrf());
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(home.engine.threads().get("chat-tabs")).isPresent();
    }

    @Test
    void crossSitePost_isRefused_evenWithTheCookieAndTheCsrfToken() {
        Map<String, String> form = Map.of("thread", "chat-tabs", "csrf", client.csrf());
        List<Map<String, String>> foreign = List.of(
                Map.of("Origin", "http://evil.example"),
                Map.of("Origin", "null"),
                Map.of("Origin", "http://127.0.0.1:" + (home.console.port() + 1)),
                Map.of("Referer", "http://evil.example/page"),
                Map.of("Referer", client.origin() + ".evil.example/"),
                Map.of());
        for (Map<String, String> headers : foreign) {
            HttpResponse<String> response = client.postRaw("/conversations/forget", form, headers);
            assertThat(response.statusCode()).as("headers %s", headers).isEqualTo(403);
        }
        assertThat(home.engine.threads().get("chat-tabs")).isPresent();

        HttpResponse<String> sameSite = client.postRaw("/conversations/disable", form,
                Map.of("Referer", client.origin() + "/conversations"));
        assertThat(sameSite.statusCode()).isEqualTo(303);
    }

    @Test
    void get_neverChangesState() {
        String oldest = home.engine.admin().history().get(1).id();
        for (String route : POST_ROUTES) {
            HttpResponse<String> response = client.get(route + "?thread=chat-tabs&id=" + oldest);
            assertThat(response.statusCode()).as("GET %s", route).isEqualTo(405);
            assertThat(response.headers().firstValue("Allow")).as("GET %s", route).hasValue("POST");
        }
        assertThat(home.engine.threads().get("chat-tabs")).isPresent();
        assertThat(home.engine.admin().history()).hasSize(2);
    }

    @Test
    void traversalInAnyParameter_isRefused_andNoFileOutsideTheMemoryFolderIsRead() {
        List<String> values = List.of("../secret.txt", "../../secret.txt", "skills/../../secret.txt", "..",
                "..%2fsecret.txt", "%2e%2e%2fsecret.txt", "%2e%2e/secret.txt", "%252e%252e%252fsecret.txt",
                "..%5csecret.txt", "%2fetc%2fpasswd", "/etc/passwd", "~/secret.txt", "C:/secret.txt",
                temp.resolve("secret.txt").toString(), "MEMORY.md%00.txt");
        for (String route : List.of("/", "/memory", "/provenance", "/history", "/conversations", "/pending")) {
            // Not q: the search takes any text, it names no file (see anySearchText_isTaken...).
            for (String name : List.of("path", "thread", "id")) {
                for (String value : values) {
                    String query = route + "?" + name + "=" + value;
                    HttpResponse<String> response = client.get(query);
                    assertThat(response.statusCode()).as("GET %s", query).isIn(400, 404);
                    assertThat(response.body()).as("GET %s", query).doesNotContain(SECRET).doesNotContain("root:");
                }
            }
        }
        for (String path : List.of("/assets/../../secret.txt", "/assets/%2e%2e/%2e%2e/secret.txt",
                "/memory/../secret.txt", "//etc/passwd", "/assets/console.css/../../secret.txt")) {
            HttpResponse<String> response = client.get(path);
            assertThat(response.statusCode()).as("GET %s", path).isIn(400, 404);
            assertThat(response.body()).as("GET %s", path).doesNotContain(SECRET);
        }
        HttpResponse<String> form = client.post("/conversations/forget", "thread", "../chat-tabs");
        assertThat(form.statusCode()).isEqualTo(400);
    }

    @Test
    void anySearchText_isTaken_namesNoFile_andIsShownEncoded() {
        for (String query : List.of("/usr/bin", "../secret.txt", "C:%5CUsers", "%252e%252e", "~/x",
                temp.resolve("secret.txt").toString(), "%3Cscript%3Ealert(1)%3C/script%3E")) {
            HttpResponse<String> response = client.get("/memory?q=" + query);
            Document page = org.jsoup.Jsoup.parse(response.body());

            assertThat(response.statusCode()).as(query).isEqualTo(200);
            assertThat(response.body()).as(query).doesNotContain(SECRET).doesNotContain("<script>alert");
            assertThat(page.select("input[name=q]").attr("value")).as(query)
                    .isEqualTo(java.net.URLDecoder.decode(query, StandardCharsets.UTF_8));
        }
        Document found = client.page("/memory?q=" + "pytest");
        assertThat(found.select("ol.matches li")).isNotEmpty();
        assertThat(client.get("/memory?q=" + "a".repeat(Params.MAX_FREE_TEXT_CHARS + 1)).statusCode()).isEqualTo(400);
    }

    @Test
    void dataRead_withoutThePagesCsrfToken_isRefused_evenWithTheCookie() {
        String othersToken = new ConsoleClient(home.console).csrf();
        Document page = client.page("/refresh");

        HttpResponse<String> withCookieOnly = client.get("/refresh/status");
        HttpResponse<String> withAnotherSessionsToken = client.getWithHeader("/refresh/status", AccessGuard.CSRF_HEADER,
                othersToken);
        HttpResponse<String> asThePageReadsIt = client.getData("/refresh/status");

        assertThat(page.select("meta[name=mnemo-csrf]").attr("content")).isEqualTo(client.csrf());
        assertThat(withCookieOnly.statusCode()).isEqualTo(403);
        assertThat(withCookieOnly.body()).doesNotContain("running");
        assertThat(withAnotherSessionsToken.statusCode()).isEqualTo(403);
        assertThat(asThePageReadsIt.statusCode()).isEqualTo(200);
        assertThat(asThePageReadsIt.body()).isEqualTo("{\"running\":false}");
    }

    @Test
    void aSessionUnusedPastTheIdleTimeout_isRefused_untilTheTokenIsShownAgain() {
        try (MnemoConsole console = MnemoConsole.builder().engine(home.engine).clock(home.clock).build().start()) {
            ConsoleClient owner = new ConsoleClient(console);
            assertThat(owner.get("/memory").statusCode()).isEqualTo(200);
            home.clock.advance(java.time.Duration.ofMinutes(29));
            assertThat(owner.get("/memory").statusCode()).as("used within 30 min").isEqualTo(200);
            home.clock.advance(java.time.Duration.ofMinutes(29));
            assertThat(owner.getData("/refresh/status").statusCode()).as("each use starts the idle time again")
                    .isEqualTo(200);
            home.clock.advance(java.time.Duration.ofMinutes(31));

            HttpResponse<String> expired = owner.get("/memory");
            HttpResponse<String> expiredData = owner.getData("/refresh/status");

            assertThat(expired.statusCode()).isEqualTo(401);
            assertThat(expired.body()).contains("ended after 30 min unused").doesNotContain("tabs, never spaces");
            assertThat(expiredData.statusCode()).isEqualTo(401);
            owner.logIn();
            assertThat(owner.get("/memory").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void theIdleTimeout_isConfigurable() {
        try (MnemoConsole console = MnemoConsole.builder().engine(home.engine).clock(home.clock)
                .sessionIdleTimeout(java.time.Duration.ofMinutes(5)).build().start()) {
            ConsoleClient owner = new ConsoleClient(console);
            assertThat(owner.get("/").statusCode()).isEqualTo(200);
            home.clock.advance(java.time.Duration.ofMinutes(6));

            assertThat(owner.get("/").statusCode()).isEqualTo(401);
        }
    }

    @Test
    void aHostHeaderNamingAnotherSite_isRefused_soARebindingDomainGetsNothing() throws IOException {
        String answer = rawGet("/memory", "evil.example:" + home.console.port(), client.cookie());

        assertThat(answer).startsWith("HTTP/1.1 403").doesNotContain("tabs, never spaces");
        assertThat(rawGet("/memory", "127.0.0.1:" + home.console.port(), client.cookie())).startsWith("HTTP/1.1 200");
    }

    @Test
    void plantedScriptAndJavascriptLinkInAMemoryFile_areShownAsTextAndLinkNowhere() {
        home.plant("skills/planted.md", """
                # Planted

                <script>document.title = 'pwned'; window.mnemoPwned = true;</script>

                <img src="x" onerror="window.mnemoPwned = true">

                <iframe src="https://evil.example"></iframe>

                Inline <script>window.mnemoPwned = true;</script> too.

                [open me](javascript:document.title='clicked') and [data](data:text/html,<script>alert(1)</script>)
                and <javascript:alert(1)> and [fine](https://example.com) and [handbook](../MEMORY.md)
                and [escape](../../secret.txt) and [local](http://127.0.0.1:9000/grab) and <http://localhost:8080/>
                """);

        HttpResponse<String> response = client.get("/memory?path=skills/planted.md");
        Document page = org.jsoup.Jsoup.parse(response.body());
        Element markdown = page.selectFirst("article .markdown");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).doesNotContain("<script>document").doesNotContain("<iframe")
                .doesNotContain("<img src=\"x\"");
        assertThat(markdown.text()).contains("<script>document.title = 'pwned'").contains("<iframe");
        assertThat(markdown.select("script, iframe, img[onerror], [onerror]")).isEmpty();
        assertThat(markdown.select("a[href]").eachAttr("href"))
                .containsExactly("https://example.com", "/memory?path=MEMORY.md");
        assertThat(markdown.select("a.link-removed")).hasSize(4);
        assertThat(markdown.select("span.link-local").eachText()).containsExactly("local", "http://localhost:8080/");
    }

    @Test
    void everyTextOnThePages_isEncoded_evenAConversationIdMadeToBreakOut() {
        String id = "chat\"><img src=x onerror=alert(1)>";
        home.recordSession(id, "<b>bold</b> claim & <script>alert('x')</script>");

        Document page = client.page("/conversations");

        assertThat(page.select("img[onerror], script:not([src]), b")).isEmpty();
        assertThat(page.select("tr[data-thread]").eachAttr("data-thread")).contains(id);
        assertThat(page.text()).contains("<b>bold</b> claim & <script>alert('x')</script>");
    }

    /** A GET written by hand, so the Host header can be anything. */
    private String rawGet(String path, String host, String cookie) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", home.console.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nCookie: " + cookie
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
