package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryTools;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.postgres.TestCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine;

/** {@code mnemo ui} in process: its first line, its token, serving until stopped, its refusals. */
class UiCommandTest {

    private static final Pattern FIRST_LINE =
            Pattern.compile("Mnemo console: (http://127\\.0\\.0\\.1:(\\d+)/\\?token=[A-Za-z0-9_-]{43})");

    @TempDir
    Path temp;

    private CommandLine commandLine(StringWriter err) {
        MnemoCli cli = new MnemoCli(Map.of(), temp.resolve("user").toString(), env -> Optional.empty());
        String[] args = {"ui"};
        CommandLine commandLine = MnemoCli.commandLineFor(cli, StartupWarmUp.none(), args);
        commandLine.setErr(new PrintWriter(err));
        return commandLine;
    }

    @Test
    void ui_printsTheAddressWithItsTokenAsTheFirstLine_servesIt_andStopsWhenInterrupted() throws Exception {
        Path home = MnemoJar.homeWithMemories(temp.resolve("home"));
        PipedReader pipe = new PipedReader();
        StringWriter err = new StringWriter();
        CommandLine commandLine = commandLine(err);
        commandLine.setOut(new PrintWriter(new PipedWriter(pipe), true));
        AtomicInteger exit = new AtomicInteger(-1);
        Thread serving = new Thread(() -> exit.set(commandLine.execute("--home", home.toString(), "ui")), "mnemo-ui");
        serving.start();

        String first = new BufferedReader(pipe).readLine();
        Matcher line = FIRST_LINE.matcher(first);
        assertThat(line.matches()).as(first).isTrue();
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> withToken = http.send(HttpRequest.newBuilder(URI.create(line.group(1))).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> withoutToken = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + line.group(2) + "/memory")).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> memory = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + line.group(2)
                + "/memory?path=MEMORY.md")).header("Cookie", withToken.headers().firstValue("Set-Cookie")
                .orElseThrow().split(";")[0]).build(), HttpResponse.BodyHandlers.ofString());
        serving.interrupt();
        serving.join(Duration.ofSeconds(30).toMillis());

        assertThat(withToken.statusCode()).isEqualTo(303);
        assertThat(withoutToken.statusCode()).isEqualTo(401);
        assertThat(memory.body()).contains("The project builds with gradle 8");
        assertThat(serving.isAlive()).isFalse();
        assertThat(exit.get()).as(err.toString()).isZero();
        assertThat(err.toString()).contains("until stopped").contains("No model is configured")
                .contains(MnemoCli.MODEL_HELP); // the whole hint, not its first line

        assertThatThrownBy(() -> new Socket("127.0.0.1", Integer.parseInt(line.group(2))).close())
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void ui_withPostgres_servesOneTenantsMemory_andNoOtherTenants() throws Exception {
        String url = TestCluster.get().createDatabase("ui_tenant_" + ProcessHandle.current().pid());
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(url);
        try (PostgresBackend backend = PostgresBackend.builder().dataSource(dataSource).build()) {
            for (String user : new String[] {"alice", "bob"}) {
                try (MemoryEngine engine = backend.engineBuilder(user, temp.resolve("cache-" + user)).build()) {
                    assertThat(engine.tools().call(MemoryTools.ADD_AD_HOC_NOTE, "{\"filename\":"
                            + "\"2026-11-01T09-00-00-editor.md\",\"note\":\"" + user + " uses helix\"}")).isEqualTo("{}");
                }
            }
        }
        PipedReader pipe = new PipedReader();
        StringWriter err = new StringWriter();
        CommandLine commandLine = commandLine(err);
        commandLine.setOut(new PrintWriter(new PipedWriter(pipe), true));
        AtomicInteger exit = new AtomicInteger(-1);
        Thread serving = new Thread(() -> exit.set(commandLine.execute("ui", "--postgres", url, "--tenant", "alice")),
                "mnemo-ui-postgres");
        serving.start();

        Matcher line = FIRST_LINE.matcher(new BufferedReader(pipe).readLine());
        assertThat(line.matches()).isTrue();
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> withToken = http.send(HttpRequest.newBuilder(URI.create(line.group(1))).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> note = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + line.group(2)
                + "/memory?path=extensions/ad_hoc/notes/2026-11-01T09-00-00-editor.md")).header("Cookie",
                withToken.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0]).build(),
                HttpResponse.BodyHandlers.ofString());
        serving.interrupt();
        serving.join(Duration.ofSeconds(30).toMillis());

        assertThat(note.body()).contains("alice uses helix").doesNotContain("bob");
        assertThat(exit.get()).as(err.toString()).isZero();
        assertThat(err.toString()).contains("Serving tenant alice");
    }

    @Test
    void ui_postgresWithoutATenant_isAUsageError() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = commandLine(err);
        commandLine.setOut(new PrintWriter(new StringWriter()));

        assertThat(commandLine.execute("ui", "--postgres", "jdbc:postgresql://localhost/mnemo")).isEqualTo(2);
        assertThat(err.toString()).contains("--postgres and --tenant go together");
    }

    @Test
    void ui_onAMissingHome_exitsOne_andCreatesNothing() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = commandLine(err);
        StringWriter out = new StringWriter();
        commandLine.setOut(new PrintWriter(out));

        int exit = commandLine.execute("--home", temp.resolve("nowhere").toString(), "ui");

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("does not exist");
        assertThat(out.toString()).isEmpty();
        assertThat(Files.exists(temp.resolve("nowhere"))).isFalse();
    }

    @Test
    void ui_aPortOutOfRange_isAUsageErrorNamingIt() throws IOException {
        Path home = MnemoJar.homeWithMemories(temp.resolve("home"));
        StringWriter err = new StringWriter();
        CommandLine commandLine = commandLine(err);

        int exit = commandLine.execute("--home", home.toString(), "ui", "--port", "70000");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--port must be between 0 (a free one) and 65535, was 70000");
    }
}
