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
        assertThat(page.select(".budget .scope").eachText()).containsExactly("global, in sessions of no project",
                "project acme-shop", "global, in acme-shop's sessions");
        Element project = page.select(".budget").get(1);
        assertThat(project.select(".figures").text()).startsWith("100 / 2,500 tokens");
        assertThat(project.select("svg rect.fill").attr("width")).isEqualTo("16");
        assertThat(project.select(".scope").attr("title")).contains("projects/" + slug);
        assertThat(page.select(".card .figure").eachText()).startsWith("3", "3", "2");
    }

    @Test
    void overview_measuresTheGlobalSummaryInAProjectsSessions_againstWhatTheProjectLeavesIt() {
        String slug = ProjectKeys.slug("acme-shop");
        home.plant("memory_summary.md", "g".repeat(2_000));
        home.plant("projects/" + slug + "/memory_summary.md", "p".repeat(8_000));
        String big = ProjectKeys.slug("/srv/big");
        home.plant("projects/" + big + "/memory_summary.md", "b".repeat(10_000));

        Document page = client.page("/");

        assertThat(page.select(".budget .scope").eachText()).contains("global, in sessions of no project",
                "global, in acme-shop's sessions", "project big", "global, in big's sessions");
        Element globalAlone = page.select(".budget").get(0);
        Element globalInShop = budget(page, "global, in acme-shop's sessions");
        Element globalInBig = budget(page, "global, in big's sessions");
        assertThat(globalAlone.select(".figures").text()).isEqualTo("500 / 2,500 tokens (20 %)");
        assertThat(globalInShop.select(".figures").text()).isEqualTo("500 / 500 tokens (100 %)");
        assertThat(globalInShop.hasClass("over")).isTrue();
        assertThat(globalInBig.select(".figures").text()).isEqualTo("500 tokens, left out: no budget is left");
    }

    private static Element budget(Document page, String scope) {
        return page.select(".budget").stream().filter(e -> e.select(".scope").text().equals(scope)).findFirst()
                .orElseThrow(() -> new AssertionError("no budget bar for " + scope));
    }

    @Test
    void memory_showsProjectFoldersByName_withTheWholeSlugOnHover() {
        String slug = ProjectKeys.slug("acme-shop");
        home.plant("projects/" + slug + "/memory_summary.md", "# Shop\n");

        Document page = client.page("/memory");

        Element folder = page.select("nav.tree span.project").first();
        assertThat(folder.text()).isEqualTo("acme-shop/");
        assertThat(folder.attr("title")).isEqualTo("project acme-shop · projects/" + slug);
        assertThat(page.select("nav.tree").text()).doesNotContain(slug.substring(slug.length() - 16));
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
    void conversations_theForgetConfirmationSaysWhatAForgetDoesToOtherMemories() {
        Document page = client.page("/conversations");

        String confirm = page.select("tr[data-thread=chat-tabs] form[action=/conversations/forget]").attr("data-confirm");
        assertThat(confirm).contains("Forget this conversation?", "leaves the memory folder at once",
                "the consolidations that used it, and every later one, are dropped from the folder's history",
                "the files go back to how they were before it was first used",
                "other conversations' memories consolidated since are not lost",
                "come back at the next consolidation, which is due at once",
                "Until then every session reads the restored, older summary");
        assertThat(page.select("p.forget-effect").text()).contains(ConversationsPage.FORGET_EFFECT);
    }

    @Test
    void conversations_theForgetResultNamesWhatWasDroppedAndWhatComesBack() {
        client.post("/conversations/forget", "thread", "chat-tabs");

        String result = client.page("/conversations").select("p.flash.ok").text();

        assertThat(result).contains("Conversation chat-tabs is forgotten", "2 consolidations",
                "dropped from the history", "restored to an empty memory folder",
                "The memories of 2 other conversations (chat-pytest, chat-shop) are kept and come back at the next"
                        + " consolidation, which is due now");
    }

    @Test
    void overview_afterAForget_showsAPendingReconsolidation_notAFailureOrNever() {
        client.post("/conversations/forget", "thread", "chat-pytest");
        assertThat(home.engine.admin().status().lastPhase2Failure()).hasValueSatisfying(failure ->
                assertThat(failure).startsWith(dev.mnemo.Phase2FailureReason.FORGET_PENDING.code()));

        Document page = client.page("/");

        assertThat(page.select("dd.last-consolidation").text()).isNotEqualTo("never").isNotEmpty();
        assertThat(page.select("dd.forget-pending").text()).startsWith("pending after a forget of [chat-pytest]")
                .contains("due now");
        assertThat(page.select("ul.failures").text()).doesNotContain("Consolidation failed")
                .doesNotContain("forget_pending");
        assertThat(page.select("dl.facts").text()).contains("Next possible run").contains("a forget made the next"
                + " consolidation due at once");
        assertThat(page.select("table.grid td.bad")).isEmpty();
    }

    @Test
    void overview_lastConsolidation_fallsBackOnTheHistory_whenTheStoreHasNoSuccess() {
        dev.mnemo.MemoryStatus status = home.engine.admin().status();
        dev.mnemo.MemoryStatus noSuccess = new dev.mnemo.MemoryStatus(status.jobCounts(), status.runningLeases(),
                java.util.Optional.empty(), java.util.Optional.of("forget_pending: re-consolidating after forgetting"
                        + " [chat-x]"), status.threadCounts(), status.stage1Outputs(), status.lastStartupSkip(),
                status.checkedAt(), status.unreadableRollouts());
        java.util.List<dev.mnemo.Consolidation> history = home.engine.admin().history();

        assertThat(OverviewPage.lastConsolidation(noSuccess, history, home.clock.instant()))
                .startsWith(Times.format(history.get(0).at())).contains("newest kept in the history");
        assertThat(OverviewPage.lastConsolidation(noSuccess, java.util.List.of(), home.clock.instant()))
                .isEqualTo("never");
        assertThat(OverviewPage.forgetPending(noSuccess)).hasValue(" of [chat-x]");
    }

    @Test
    void overview_namesTheForgetsStillInProgress_andSaysNothingWhenThereAreNone() {
        dev.mnemo.MemoryStatus status = home.engine.admin().status();
        dev.mnemo.MemoryStatus inProgress = new dev.mnemo.MemoryStatus(status.jobCounts(), status.runningLeases(),
                status.lastPhase2Success(), status.lastPhase2Failure(), status.threadCounts(), status.stage1Outputs(),
                status.lastStartupSkip(), status.checkedAt(), status.unreadableRollouts(), status.lastModelFailure(),
                status.unusedMemories(), status.phase2NotBefore(), java.util.List.of("chat-pytest"));

        assertThat(OverviewPage.forgetInProgress(inProgress)).hasValueSatisfying(text ->
                assertThat(text).contains("chat-pytest").contains("get no memory"));
        assertThat(OverviewPage.forgetInProgress(status)).isEmpty();
    }

    @Test
    void overview_showsTodaysExtractionBudget_andWhenASpentOneLifts() {
        try (ConsoleHome budgeted = new ConsoleHome(temp.resolve("budgeted"),
                dev.mnemo.MemoriesConfig.builder().maxExtractionTokensPerDay(10_000).build())) {
            ConsoleClient budgetClient = new ConsoleClient(budgeted.console);
            java.time.LocalDate today = dev.mnemo.ExtractionBudget.dayOf(budgeted.clock.instant());
            assertThat(budgeted.store.reserveExtractionTokens(today, 4_000, 10_000, budgeted.clock.instant())).isTrue();

            assertThat(budgetClient.page("/").select("p.extraction-budget").text())
                    .contains("4,000 of 10,000 tokens spent today");

            budgeted.store.settleExtractionTokens(today, 4_000, 10_500, budgeted.clock.instant());
            Element spent = budgetClient.page("/").select("p.extraction-budget").first();
            assertThat(spent.hasClass("bad")).isTrue();
            assertThat(spent.text()).contains("exhausted until 00:00 UTC", "10,500 of 10,000 tokens")
                    .contains("max_extraction_tokens_per_day");
        }
        assertThat(client.page("/").select("p.extraction-budget")).as("no budget set: nothing shown").isEmpty();
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
