package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.ProjectKeys;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's pages over a real home (SQLite, git, a scripted model), read and driven at the
 * HTTP level: what each page shows, and what each action changes in the engine.
 */
class ConsolePagesTest {

    @TempDir
    Path temp;

    private ConsoleHome home;
    private ConsoleClient client;

    @BeforeEach
    void homeWithHistory() {
        home = new ConsoleHome(temp.resolve("home")).withHistory();
        client = new ConsoleClient(home.console);
    }

    @AfterEach
    void closeConsole() {
        home.close();
    }

    @Test
    void overview_showsJobsTheLastConsolidationTheNextRunAndABudgetBarPerScope() {
        String slug = ProjectKeys.slug("acme-shop");
        home.plant("projects/" + slug + "/memory_summary.md", "x".repeat(400));
        home.plant("projects/" + slug + "/MEMORY.md", "# Shop\n");

        Document page = client.page("/");

        assertThat(page.select("table.grid td.mono").eachText()).contains("memory_stage1", "memory_consolidate_global");
        assertThat(page.select("dl.facts").text()).contains("Last consolidation", "2026-11-01 23:00 UTC")
                .contains("not before").contains("six-hour cooldown after the last success");
        assertThat(page.select(".budget .scope").eachText()).containsExactly("global", "project acme-shop");
        Element project = page.select(".budget").get(1);
        assertThat(project.select(".figures").text()).startsWith("100 / 2,500 tokens");
        assertThat(project.select("svg rect.fill").attr("width")).isEqualTo("16");
        assertThat(page.select(".card .figure").eachText()).startsWith("3", "3", "2");
    }

    @Test
    void memory_showsTheSummaryFirst_listsEveryFile_andRendersTheHandbook() {
        Document summary = client.page("/memory");
        Document handbook = client.page("/memory?path=MEMORY.md");

        assertThat(summary.select("article .file-head h2").text()).isEqualTo("memory_summary.md");
        assertThat(summary.select("nav.tree a").eachText()).startsWith("memory_summary.md", "MEMORY.md")
                .contains("raw_memories.md");
        assertThat(summary.select("nav.tree li.folder").eachText()).contains("rollout_summaries/");
        assertThat(handbook.select("article .markdown h1").first().text()).isEqualTo("Task Group: everything");
        assertThat(handbook.select("article .markdown").text()).contains("The user indents with tabs, never spaces;")
                .contains("Tests run with pytest -q from the repository root;");
    }

    @Test
    void memory_aRolloutSummaryLinksToTheConversationItCameFrom() {
        Document summary = client.page("/memory");
        String rolloutSummary = summary.select("nav.tree a[title^=rollout_summaries/]").first().attr("title");

        Document page = client.page("/memory?path=" + rolloutSummary);

        assertThat(page.select("a.provenance").eachAttr("href")).singleElement().isIn(
                "/provenance?thread=chat-tabs", "/provenance?thread=chat-shop", "/provenance?thread=chat-pytest");
    }

    @Test
    void memory_searchFindsLinesAndMarksTheQuery_escaped() {
        home.plant("skills/odd.md", "# Odd\n\nA <b>tabs</b> line.\n");

        Document page = client.page("/memory?q=TABS");

        assertThat(page.select("ol.matches li a").eachText()).contains("skills/odd.md:3");
        assertThat(page.select("ol.matches mark").eachText()).contains("tabs");
        assertThat(page.select("ol.matches b")).isEmpty();
        assertThat(page.select("ol.matches .line").eachText()).contains("A <b>tabs</b> line.");
    }

    @Test
    void memory_aFileThatDoesNotExist_is404() {
        assertThat(client.get("/memory?path=skills/nothing.md").statusCode()).isEqualTo(404);
    }

    @Test
    void history_rollbackButtonRestoresTheOlderSummary_asANewEntry() {
        Document before = client.page("/history");
        Element oldest = before.select("ol.timeline li.entry").last();
        String oldestId = oldest.select("form input[name=id]").attr("value");
        assertThat(before.select("ol.timeline li.entry")).hasSize(2);
        assertThat(client.page("/memory").select("article .markdown").text()).contains("chat-pytest");

        HttpResponse<String> rolledBack = client.post("/history/rollback", "id", oldestId);

        assertThat(rolledBack.statusCode()).isEqualTo(303);
        assertThat(rolledBack.headers().firstValue("Location")).hasValue("/history");
        Document after = client.page("/history");
        assertThat(after.select("p.flash.ok").text()).contains("restored as consolidation " + oldestId);
        assertThat(after.select("ol.timeline li.entry")).hasSize(3);
        String summary = client.page("/memory").select("article .markdown").text();
        assertThat(summary).contains("chat-tabs").doesNotContain("chat-pytest");
    }

    @Test
    void history_rollbackToAnIdThatIsNotKept_changesNothingAndSaysSo() {
        client.post("/history/rollback", "id", "20990101T000000Z-abcdef");

        assertThat(client.page("/history").select("p.flash.failed").text()).contains("No consolidation");
        assertThat(home.engine.admin().history()).hasSize(2);
    }

    @Test
    void conversations_disableAndEnableChangeTheMemoryMode() {
        client.post("/conversations/disable", "thread", "chat-tabs");
        assertThat(home.engine.threads().get("chat-tabs").orElseThrow().memoryMode()).isEqualTo(MemoryMode.DISABLED);
        Document page = client.page("/conversations");
        assertThat(page.select("tr[data-thread=chat-tabs] .badge").text()).isEqualTo("disabled");
        assertThat(page.select("tr[data-thread=chat-tabs] button.enable")).hasSize(1);

        client.post("/conversations/enable", "thread", "chat-tabs");
        assertThat(home.engine.threads().get("chat-tabs").orElseThrow().memoryMode()).isEqualTo(MemoryMode.ENABLED);
    }

    @Test
    void conversations_forgetDeletesTheConversation_andItsTextLeavesTheMemoryFolder() {
        assertThat(client.page("/memory?path=MEMORY.md").text()).contains("pytest -q");

        HttpResponse<String> forgot = client.post("/conversations/forget", "thread", "chat-pytest");

        assertThat(forgot.statusCode()).isEqualTo(303);
        assertThat(home.engine.threads().get("chat-pytest")).isEmpty();
        assertThat(client.page("/conversations").select("tr[data-thread]").eachAttr("data-thread"))
                .containsExactlyInAnyOrder("chat-tabs", "chat-shop");
        assertThat(client.page("/memory?path=MEMORY.md").text()).doesNotContain("pytest -q").contains("tabs");
        assertThat(client.page("/memory?q=pytest").select("ol.matches li")).isEmpty();
    }

    @Test
    void actions_onAnUnknownConversation_changeNothingAndSaySo() {
        client.post("/conversations/forget", "thread", "chat-nobody");

        assertThat(client.page("/conversations").select("p.flash.failed").text()).contains("No conversation chat-nobody");
        assertThat(home.engine.threads().list()).hasSize(3);
    }

    @Test
    void unknownPage_is404_andAWrongMethodIs405() {
        assertThat(client.get("/settings").statusCode()).isEqualTo(404);
        assertThat(client.postRaw("/memory", ConsoleClient.fields("csrf", client.csrf()),
                java.util.Map.of("Origin", client.origin())).statusCode()).isEqualTo(405);
    }
}
