package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conversation's page shows its thread log and its sub-agents, and the overview says whether
 * log entries were lost: over a real home whose engine keeps its logs in {@code logs.sqlite}, read
 * at the HTTP level.
 */
class ConversationStatePageTest {

    private static final String HOSTILE = "<script>alert('x')</script><img src=x onerror=alert(1)>";

    @TempDir
    Path temp;

    private ConsoleHome home;

    @AfterEach
    void closeConsole() {
        if (home != null) {
            home.close();
        }
    }

    private ConsoleClient clientOf(ConsoleHome opened) {
        home = opened;
        return new ConsoleClient(home.console);
    }

    private void log(String thread, Duration after, String level, String message) {
        home.engine.threadLogs().append(new ThreadLogEntry(thread, ConsoleHome.T0.plus(after), level, "app::test",
                message));
    }

    @Test
    void conversation_showsItsLogEntriesNewestLast_withHtmlInAMessageEscaped() {
        ConsoleClient client = clientOf(ConsoleHome.withThreadLogs(temp.resolve("home")));
        home.recordSession("chat-logs", "Remember the deploy steps.");
        log("chat-logs", Duration.ofSeconds(1), "INFO", "first: session recorded");
        log("chat-logs", Duration.ofSeconds(2), "WARN", HOSTILE);
        log("chat-logs", Duration.ofSeconds(3), "INFO", "third: newest");
        log("chat-other", Duration.ofSeconds(4), "ERROR", "another conversation's entry");
        home.engine.threadLogs().flush();

        HttpResponse<String> raw = client.get("/provenance?thread=chat-logs");
        Document page = client.page("/provenance?thread=chat-logs");

        List<Element> rows = page.select("table.logs tbody tr").stream()
                .filter(row -> row.child(2).text().equals("app::test")).toList();
        assertThat(rows).extracting(row -> row.child(3).text())
                .containsExactly("first: session recorded", HOSTILE, "third: newest");
        assertThat(rows.get(1).child(0).text()).isEqualTo("2026-11-01 09:00:02");
        assertThat(rows.get(1).child(1).text()).isEqualTo("WARN");
        assertThat(rows.get(1).hasClass("level-warn")).isTrue();
        assertThat(page.select("section.logs script, section.logs img")).isEmpty();
        assertThat(raw.body()).contains("&lt;script&gt;alert('x')&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;")
                .doesNotContain("<script>alert").doesNotContain("another conversation's entry");
    }

    @Test
    void conversation_ofAnEngineThatKeepsNoLogs_saysWhy() {
        ConsoleClient client = clientOf(new ConsoleHome(temp.resolve("home")));
        home.recordSession("chat-plain", "Hello.");

        Document page = client.page("/provenance?thread=chat-plain");

        assertThat(page.select("section.logs p.no-logs").text()).startsWith("This engine keeps no thread logs: ")
                .contains("given a store that keeps no thread logs");
        assertThat(page.select("table.logs")).isEmpty();
    }

    @Test
    void conversation_linksTheThreadThatSpawnedIt_andTheSubAgentsItSpawned() {
        ConsoleClient client = clientOf(new ConsoleHome(temp.resolve("home")));
        home.recordSession("chat-parent", "Split the work into two sub-agents.");
        home.recordSession("chat-child", "Write the tests.");
        home.engine.agentGraph().upsertSpawnEdge("chat-parent", "chat-child", SpawnEdgeStatus.OPEN);
        home.engine.agentGraph().upsertSpawnEdge("chat-parent", "ephemeral-1", SpawnEdgeStatus.CLOSED);

        Document parent = client.page("/provenance?thread=chat-parent");
        Document child = client.page("/provenance?thread=chat-child");

        assertThat(parent.select("section.spawn ul.children li").eachText())
                .containsExactly("chat-child (open)", "ephemeral-1 (no thread row) (closed)");
        assertThat(parent.select("section.spawn ul.children a").eachAttr("href"))
                .containsExactly("/provenance?thread=chat-child");
        assertThat(parent.select("section.spawn dt").eachText()).containsExactly("Spawned");
        assertThat(child.select("section.spawn dt").eachText()).containsExactly("Spawned by");
        assertThat(child.select("section.spawn dd a").attr("href")).isEqualTo("/provenance?thread=chat-parent");
        assertThat(child.select("section.spawn dd a").text()).isEqualTo("chat-parent");
    }

    @Test
    void conversation_withNoSpawnEdge_hasNoSubAgentSection() {
        ConsoleClient client = clientOf(new ConsoleHome(temp.resolve("home")));
        home.recordSession("chat-alone", "Just me.");

        assertThat(client.page("/provenance?thread=chat-alone").select("section.spawn")).isEmpty();
    }

    @Test
    void overview_saysNoLogEntryWasLost() {
        ConsoleClient client = clientOf(ConsoleHome.withThreadLogs(temp.resolve("home")));

        Element line = client.page("/").selectFirst("p.log-losses");
        assertThat(line.text()).isEqualTo("No thread log entry was lost.");
        assertThat(line.hasClass("muted")).isTrue();
    }

    @Test
    void overview_showsTheNewestLossAnyProcessReported() {
        ConsoleClient client = clientOf(ConsoleHome.withThreadLogs(temp.resolve("home")));
        ThreadLogs logs = home.engine.threadLogs();
        // what another process's writer logs after losing entries (ThreadLogWriter's own report)
        logs.append(new ThreadLogEntry(ThreadLogs.LOSSES_THREAD, ConsoleHome.T0.minus(Duration.ofHours(1)),
                "WARN", "mnemo::logs", "3 log entries lost (queue full or write failed); 3 since the engine opened"));
        logs.append(new ThreadLogEntry(ThreadLogs.LOSSES_THREAD, ConsoleHome.T0, "WARN", "mnemo::logs",
                "7 log entries lost (queue full or write failed); 10 since the engine opened"));
        logs.flush();

        Element line = client.page("/").selectFirst("p.log-losses");
        assertThat(line.hasClass("bad")).isTrue();
        assertThat(line.text()).isEqualTo("0 thread log entries lost by this"
                + " console's engine; newest loss reported 2026-11-01 09:00 UTC: 7 log entries lost (queue full or"
                + " write failed); 10 since the engine opened.");
    }

    @Test
    void overview_ofAnEngineThatKeepsNoLogs_saysSoInOneLine() {
        ConsoleClient client = clientOf(new ConsoleHome(temp.resolve("home")));

        assertThat(client.page("/").select("p.log-losses").text()).startsWith("This engine keeps no thread logs: ")
                .contains("given a store that keeps no thread logs");
    }
}
