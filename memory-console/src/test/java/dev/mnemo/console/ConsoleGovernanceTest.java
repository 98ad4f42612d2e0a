package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Approval;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryMode;
import dev.mnemo.PendingMemory;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pages that show and steer governance (issue 30) at the HTTP level: provenance with the
 * transcript, each consolidation's diff, the approval queue, and refresh now with its progress.
 */
class ConsoleGovernanceTest {

    @TempDir
    Path temp;

    private ConsoleHome home;
    private ConsoleClient client;
    private final HeldExecutor refreshes = new HeldExecutor();

    private void open(MemoriesConfig config) {
        home = new ConsoleHome(temp.resolve("home"), config, refreshes);
        home.remember("tabs", "- The user indents with tabs, never spaces.");
        home.remember("pytest", "- Tests run with `pytest -q`; <script>alert('raw')</script> stays text.");
        client = new ConsoleClient(home.console);
    }

    @AfterEach
    void closeHome() {
        home.close();
    }

    @Test
    void provenance_listsEachStoredMemory_andOpensItsConversationWithTheRedactedTranscript() {
        open(MemoriesConfig.defaults());
        home.recordSession("chat-tabs", "Please remember: tabs, never spaces. My key is sk-proj-abcdefghijklmnopqrstuv123456");
        home.extractAndConsolidate();

        Document list = client.page("/provenance");
        Document one = client.page("/provenance?thread=chat-tabs");

        assertThat(list.select("table.memories a.provenance").eachAttr("href")).containsExactly(
                "/provenance?thread=chat-tabs");
        assertThat(list.select("table.memories td").eachText()).contains("in the last consolidation", "never");
        assertThat(one.select("dl.facts").text()).contains("chat-tabs", "Cited", "0 times");
        assertThat(one.select(".markdown").text()).contains("The user indents with tabs, never spaces.");
        assertThat(one.select(".transcript .role").eachText()).contains("user", "assistant");
        assertThat(one.select(".transcript .text").text()).contains("Please remember: tabs, never spaces.")
                .doesNotContain("abcdefghijklmnopqrstuv123456");
    }

    @Test
    void provenance_ofAnUnknownConversation_is404() {
        open(MemoriesConfig.defaults());

        assertThat(client.get("/provenance?thread=chat-nobody").statusCode()).isEqualTo(404);
    }

    @Test
    void history_showsTheChosenConsolidationsDiff_withMemoryTextEscaped() {
        open(MemoriesConfig.defaults());
        home.recordSession("chat-tabs", "Please remember: tabs, never spaces.");
        home.extractAndConsolidate();
        home.recordSession("chat-pytest", "How do I run the tests? pytest?");
        home.extractAndConsolidate();
        String newest = home.engine.admin().history().get(0).id();

        HttpResponse<String> response = client.get("/history?id=" + newest);
        Document page = org.jsoup.Jsoup.parse(response.body());

        assertThat(page.select("pre.diff .add").eachText()).anySatisfy(line -> assertThat(line).contains("pytest -q"));
        assertThat(page.select("pre.diff").text()).contains("<script>alert('raw')</script>");
        assertThat(page.select("pre.diff script")).isEmpty();
        assertThat(response.body()).doesNotContain("<script>alert");
    }

    @Test
    void pending_approveAndReject_decideEachWaitingMemory() {
        open(MemoriesConfig.builder().approval(Approval.ASK).build());
        home.recordSession("chat-tabs", "Please remember: tabs, never spaces.");
        home.recordSession("chat-pytest", "How do I run the tests? pytest?");
        home.idle();
        home.engine.admin().runPhase1("console-test");
        List<PendingMemory> waiting = home.engine.admin().pending();
        String tabs = waiting.stream().filter(p -> p.threadId().equals("chat-tabs")).findFirst().orElseThrow().id();
        String pytest = waiting.stream().filter(p -> p.threadId().equals("chat-pytest")).findFirst().orElseThrow().id();

        Document page = client.page("/pending");
        client.post("/pending/approve", "id", tabs);
        client.post("/pending/reject", "id", pytest);
        Document after = client.page("/pending");

        assertThat(page.select("li.pending-item")).hasSize(2);
        assertThat(page.select("li.pending-item .markdown").text()).contains("The user indents with tabs")
                .contains("<script>alert('raw')</script>");
        assertThat(page.select("li.pending-item .markdown script")).isEmpty();
        assertThat(after.select("li.pending-item")).isEmpty();
        assertThat(after.select("p.flash.ok").text()).contains("Rejected " + pytest);
        assertThat(home.engine.admin().pending()).isEmpty();
        assertThat(home.engine.threads().get("chat-pytest").map(t -> t.memoryMode()))
                .hasValueSatisfying(mode -> assertThat(mode).isNotEqualTo(MemoryMode.ENABLED));
        client.post("/pending/approve", "id", "stage1:chat-nobody");
        assertThat(client.page("/pending").select("p.flash.failed").text()).contains("Nothing pending has id");
    }

    @Test
    void refreshNow_runsInTheBackground_showsItsProgress_thenWhatItDid() {
        open(MemoriesConfig.defaults());
        home.recordSession("chat-tabs", "Please remember: tabs, never spaces.");
        home.idle();

        HttpResponse<String> started = client.post("/refresh/start");
        Document running = client.page("/refresh");
        String status = client.getData("/refresh/status").body();
        client.post("/refresh/start");
        Document again = client.page("/refresh");
        refreshes.runHeld();
        Document done = client.page("/refresh");

        assertThat(started.statusCode()).isEqualTo(303);
        assertThat(running.select("#refresh-progress[data-status=/refresh/status]")).hasSize(1);
        assertThat(running.select("button.refresh")).isEmpty();
        assertThat(status).contains("\"running\":true").contains("Refreshing for");
        assertThat(again.select("p.flash.failed").text()).isEqualTo("A refresh is already running.");
        assertThat(done.select(".last-refresh .outcome").text()).startsWith("succeeded");
        assertThat(done.select("button.refresh")).hasSize(1);
        assertThat(client.getData("/refresh/status").body()).isEqualTo("{\"running\":false}");
        assertThat(client.page("/memory?path=MEMORY.md").text()).contains("The user indents with tabs");
        assertThat(client.page("/").select("a.card[href=/refresh] .figure").text()).isNotEqualTo("0");
    }

    @Test
    void pending_showsEachItemsScope_aProjectByItsName() {
        open(MemoriesConfig.builder().approval(Approval.ASK).build());
        home.remember("Postgres", "- The shop's database is PostgreSQL 16.");
        home.recordSession("chat-tabs", "Please remember: tabs, never spaces.");
        home.recordSession(dev.mnemo.SessionContext.root("chat-shop").inProject("acme-shop"), "The shop runs on Postgres 16.");
        home.idle();
        home.engine.admin().runPhase1("console-test");

        Document page = client.page("/pending");

        org.jsoup.nodes.Element shop = page.select("li.pending-item[data-pending=stage1:chat-shop]").first();
        org.jsoup.nodes.Element tabs = page.select("li.pending-item[data-pending=stage1:chat-tabs]").first();
        assertThat(shop.select(".badge.scope").text()).isEqualTo("project acme-shop");
        assertThat(shop.select(".badge.scope").attr("title")).isEqualTo("project acme-shop · projects/"
                + dev.mnemo.ProjectKeys.slug("acme-shop"));
        assertThat(tabs.select(".badge.scope").text()).isEqualTo("global");
    }

    @Test
    void refreshNow_saysWhatPhaseOneDid_aMemoryNowWaitingForApproval() {
        open(MemoriesConfig.builder().approval(Approval.ASK).build());
        home.recordSession("chat-tabs", "Please remember: tabs, never spaces.");
        home.idle();

        client.post("/refresh/start");
        refreshes.runHeld();
        Document done = client.page("/refresh");

        assertThat(done.select(".last-refresh dd.extraction").text())
                .isEqualTo("1 conversation extracted; 1 memory now waiting for approval on the Pending page");
        assertThat(done.select(".last-refresh dt").eachText()).contains("Extraction (Phase 1)", "Consolidation (Phase 2)");
    }

    @Test
    void refreshNow_withoutAModel_saysWhatIsMissing_andStartsNothing() throws java.io.IOException {
        open(MemoriesConfig.defaults());
        Path bare = java.nio.file.Files.createDirectories(temp.resolve("bare"));
        HeldExecutor held = new HeldExecutor();
        try (dev.mnemo.MemoryEngine engine = dev.mnemo.MemoryEngine.builder().home(bare).clock(home.clock).build();
                MnemoConsole console = MnemoConsole.builder().engine(engine).clock(home.clock).executor(held).build()
                        .start()) {
            ConsoleClient owner = new ConsoleClient(console);

            Document before = owner.page("/refresh");
            HttpResponse<String> started = owner.post("/refresh/start");
            held.runHeld();
            Document after = owner.page("/refresh");

            assertThat(before.select("p.missing-model").text()).contains("Refresh now needs a model")
                    .contains("nothing was started").contains("--model").doesNotContain("builder().model(..), ");
            assertThat(before.select("button.refresh[disabled]")).hasSize(1);
            assertThat(before.select("form[action=/refresh/start]")).isEmpty();
            assertThat(started.statusCode()).isEqualTo(303);
            assertThat(after.select("p.flash.failed").text()).startsWith("Nothing was started");
            assertThat(after.select(".last-refresh")).isEmpty();
            assertThat(after.select("#refresh-progress")).isEmpty();
            assertThat(engine.admin().status().jobCounts().getOrDefault(OverviewPage.CONSOLIDATION_JOB, Map.of())
                    .getOrDefault("error", 0)).isZero();
            assertThat(engine.admin().status().lastPhase2Failure()).isEmpty();
        }
    }
}
