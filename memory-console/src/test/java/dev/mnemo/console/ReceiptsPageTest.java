package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemoryReceipt.InjectedFile;
import dev.mnemo.MemoryReceipt.ToolRead;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SkipReason;
import dev.mnemo.ThreadLogEntry;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Receipts on the console: a conversation's page shows, answer by answer, what memory it was given,
 * read and cited (from the receipts logged in its thread log, escaped); the overview shows the
 * share of the last day's answers that were given, read and cited memory; and a consolidation that
 * cannot run says why on the overview and on the page of a conversation whose memory waits for it.
 * Over a real home whose engine keeps its logs in {@code logs.sqlite}, read at the HTTP level.
 */
class ReceiptsPageTest {

    private static final String SHA = "3f786850e387550fdab836ed7e6dc881de23001b3f786850e387550fdab836ed";
    private static final String HOSTILE = "notes/<script>alert('x')</script>.md";

    @TempDir
    Path temp;

    private ConsoleHome home;
    private ConsoleClient client;

    @AfterEach
    void closeConsole() {
        if (home != null) {
            home.close();
        }
    }

    private void open() {
        home = ConsoleHome.withThreadLogs(temp.resolve("home"));
        client = new ConsoleClient(home.console);
    }

    private void logReceipt(String thread, Instant at, MemoryReceipt receipt) {
        home.engine.threadLogs().append(new ThreadLogEntry(thread, at, "INFO", MemoryReceipt.LOG_TARGET,
                receipt.toLogMessage()));
    }

    private static MemoryReceipt receipt(String thread, boolean given, boolean read, boolean cited) {
        return new MemoryReceipt(thread,
                given ? List.of(new InjectedFile("global", "summary", "memory_summary.md", SHA, 812, 200, false))
                        : List.of(),
                read ? List.of(new ToolRead("memories_read", "MEMORY.md", 1_500, false)) : List.of(),
                cited ? List.of(new MemoryCitation(List.of(new CitationEntry("MEMORY.md", 3, 7, "")), List.of()))
                        : List.of());
    }

    @Test
    void conversation_showsEachAnswerGivenReadAndCited_turnByTurn() {
        open();
        home.recordSession("chat-source", "Deploys go through the staging branch.");
        home.recordSession("chat-now", "How do we deploy?");
        logReceipt("chat-now", ConsoleHome.T0.plusSeconds(1), new MemoryReceipt("chat-now",
                List.of(new InjectedFile("global", "summary", "memory_summary.md", SHA, 4_210, 1_024, true),
                        new InjectedFile("project:acme-shop", "note", "projects/acme-shop/notes/deploy.md", SHA, 90,
                                25, false)),
                List.of(new ToolRead("memories_search", "deploy steps", 640, false),
                        new ToolRead("memories_read", "MEMORY.md", 0, true)),
                List.of(new MemoryCitation(List.of(new CitationEntry("MEMORY.md", 12, 18, "")),
                        List.of("chat-source", "chat-forgotten")))));
        home.engine.threadLogs().append(new ThreadLogEntry("chat-now", ConsoleHome.T0.plusSeconds(2), "INFO",
                "app::test", "not a receipt"));
        logReceipt("chat-now", ConsoleHome.T0.plusSeconds(3), MemoryReceipt.none("chat-now"));
        logReceipt("chat-source", ConsoleHome.T0.plusSeconds(4), receipt("chat-source", true, true, true));

        Document page = client.page("/provenance?thread=chat-now");

        List<Element> turns = page.select("section.receipts article.receipt");
        assertThat(turns).hasSize(2);
        Element first = turns.get(0);
        assertThat(first.select("h3").text()).isEqualTo("Answer 1 · 2026-11-01 09:00:01 UTC");
        List<Element> given = first.select("div.given tbody tr");
        assertThat(given).extracting(row -> row.select("td.scope").text())
                .containsExactly("global", "project:acme-shop");
        assertThat(given.get(0).select("td.path").text()).isEqualTo("memory_summary.md summary cut");
        assertThat(given.get(0).select("td.path a").attr("href")).isEqualTo("/memory?path=memory_summary.md");
        assertThat(given.get(0).select("td.tokens").text()).isEqualTo("1024");
        assertThat(given.get(0).select("td.hash").text()).isEqualTo(SHA.substring(0, 12) + "…");
        assertThat(given.get(0).select("td.hash").attr("title")).isEqualTo(SHA);
        assertThat(given.get(1).select(".badge.cut")).isEmpty();
        List<Element> reads = first.select("div.read tbody tr");
        assertThat(reads).extracting(row -> row.select("td.tool").text() + " " + row.select("td.target").text())
                .containsExactly("memories_search deploy steps", "memories_read MEMORY.md");
        assertThat(reads.get(0).text()).contains("640").doesNotContain("failed");
        assertThat(reads.get(1).hasClass("failed")).isTrue();
        assertThat(reads.get(1).select(".badge.failed").text()).isEqualTo("failed");
        assertThat(first.select("div.cited ul.files li").eachText()).containsExactly("MEMORY.md lines 12–18");
        assertThat(first.select("div.cited p.conversations").text())
                .isEqualTo("From the conversations: chat-source, chat-forgotten (no thread row)");
        assertThat(first.select("div.cited p.conversations a").eachAttr("href"))
                .containsExactly("/provenance?thread=chat-source");

        Element second = turns.get(1);
        assertThat(second.select("div.given p.none").text()).isEqualTo("No memory was in its instructions.");
        assertThat(second.select("div.read p.none").text()).isEqualTo("No memory tool was called.");
        assertThat(second.select("div.cited p.none").text()).isEqualTo("The answer cited no memory.");
    }

    @Test
    void conversation_showsAHostilePathOrQueryAsText() {
        open();
        home.recordSession("chat-hostile", "Hello.");
        logReceipt("chat-hostile", ConsoleHome.T0, new MemoryReceipt("chat-hostile",
                List.of(new InjectedFile("global", "note", HOSTILE, SHA, 10, 3, false)),
                List.of(new ToolRead("memories_search", "<img src=x onerror=alert(1)>", 0, false)),
                List.of(new MemoryCitation(List.of(new CitationEntry(HOSTILE, 1, 2, "")),
                        List.of("<b>chat</b>")))));

        HttpResponse<String> raw = client.get("/provenance?thread=chat-hostile");
        Document page = client.page("/provenance?thread=chat-hostile");

        assertThat(page.select("section.receipts script, section.receipts img, section.receipts b")).isEmpty();
        assertThat(page.select("div.given td.path a").text()).isEqualTo(HOSTILE);
        assertThat(page.select("div.read td.target").text()).isEqualTo("<img src=x onerror=alert(1)>");
        assertThat(page.select("div.cited p.conversations").text()).contains("<b>chat</b>");
        assertThat(raw.body()).contains("notes/&lt;script&gt;alert('x')&lt;/script&gt;.md")
                .doesNotContain("<script>alert").doesNotContain("<img src=x");
    }

    @Test
    void conversation_withNoReceipt_saysSoPlainly() {
        open();
        home.recordSession("chat-quiet", "Hello.");

        Document page = client.page("/provenance?thread=chat-quiet");

        assertThat(page.select("section.receipts article.receipt")).isEmpty();
        assertThat(page.select("section.receipts p.no-receipts").text())
                .startsWith("No answer of this conversation has a receipt yet");
    }

    @Test
    void conversation_ofAnEngineThatKeepsNoLogs_saysWhyNoReceiptIsShown() {
        home = new ConsoleHome(temp.resolve("home"));
        client = new ConsoleClient(home.console);
        home.recordSession("chat-plain", "Hello.");

        assertThat(client.page("/provenance?thread=chat-plain").select("section.receipts p.no-receipts").text())
                .startsWith("No receipt can be shown: this engine keeps no thread logs");
        assertThat(client.page("/").select("p.receipt-shares").text())
                .startsWith("Answers in the last 24 h cannot be counted: this engine keeps no thread logs");
    }

    @Test
    void overview_sharesCountTheLastDaysAnswersOnly_acrossConversations() {
        open();
        Instant now = ConsoleHome.T0.plus(Duration.ofDays(2));
        home.clock.set(now);
        // older than a day: not counted
        logReceipt("chat-a", now.minus(Duration.ofHours(25)), receipt("chat-a", true, true, true));
        logReceipt("chat-a", now.minus(Duration.ofHours(23)), receipt("chat-a", true, true, true));
        logReceipt("chat-a", now.minus(Duration.ofHours(2)), receipt("chat-a", true, false, false));
        logReceipt("chat-b", now.minus(Duration.ofHours(1)), receipt("chat-b", true, true, false));
        logReceipt("chat-b", now.minus(Duration.ofMinutes(1)), receipt("chat-b", false, false, false));
        home.engine.threadLogs().append(new ThreadLogEntry("chat-b", now, "INFO", "app::test", "not a receipt"));

        Element line = client.page("/").selectFirst("p.receipt-shares");

        assertThat(line.text()).isEqualTo("Answers in the last 24 h: 4 — given memory 75 %, read 50 %, cited 25 %.");
    }

    @Test
    void overview_withNoAnswerInTheLastDay_saysSo() {
        open();
        logReceipt("chat-a", ConsoleHome.T0, receipt("chat-a", true, true, true));
        home.clock.advance(Duration.ofHours(25));

        assertThat(client.page("/").select("p.receipt-shares").text())
                .isEqualTo("Answers in the last 24 h: 0: no answer was logged with a receipt.");
    }

    @Test
    void aConsolidationThatFails_saysWhyOnTheOverview_andOnThePageOfAMemoryWaitingForIt() {
        open();
        home.remember("tabs", "- The user indents with tabs.");
        home.recordSession("chat-tabs", "Please remember: tabs, never spaces.");
        home.failConsolidations("upstream answered 503 <overloaded>");
        assertThat(home.extractAndConsolidate().outcome()).isEqualTo(Phase2Outcome.FAILED);

        Document overview = client.page("/");
        Document conversation = client.page("/provenance?thread=chat-tabs");

        assertThat(overview.select("dd.consolidation-blocked").text())
                .startsWith("The last consolidation did not complete: the consolidation agent did not finish"
                        + " (a model error, its step budget or a timeout)")
                .contains("upstream answered 503 <overloaded>")
                .contains("It is tried again after the retry backoff, not before");
        assertThat(conversation.select("p.consolidation-blocked").text())
                .startsWith("This memory waits for a consolidation, which cannot run now. The last consolidation did"
                        + " not complete: the consolidation agent did not finish");
    }

    @Test
    void aConsolidationThatSucceeded_saysNothingOfWhyItCannotRun() {
        open();
        home.remember("tabs", "- The user indents with tabs.");
        home.recordSession("chat-tabs", "Please remember: tabs, never spaces.");
        assertThat(home.extractAndConsolidate().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

        assertThat(client.page("/").select(".consolidation-blocked")).isEmpty();
        assertThat(client.page("/provenance?thread=chat-tabs").select(".consolidation-blocked")).isEmpty();
    }

    @Test
    void whyItCannotRun_namesAStartupSkipThatStopsEveryConsolidation_andNotOneThatStopsOneSession() {
        open();
        MemoryStatus status = home.engine.admin().status();

        assertThat(ConsolidationBlock.why(withSkip(status, SkipReason.NO_MODEL), home.clock.instant()))
                .hasValue("No consolidation can run: no model (nor consolidation agent) is configured.");
        assertThat(ConsolidationBlock.why(withSkip(status, SkipReason.GENERATION_DISABLED), home.clock.instant()))
                .hasValueSatisfying(why -> assertThat(why).contains("generate_memories is off"));
        assertThat(ConsolidationBlock.why(withSkip(status, SkipReason.EPHEMERAL_SESSION), home.clock.instant()))
                .isEmpty();
        assertThat(ConsolidationBlock.why(status, home.clock.instant())).isEmpty();
    }

    private static MemoryStatus withSkip(MemoryStatus status, SkipReason skip) {
        return status.withEngineFacts(Optional.of(skip), status.unreadableRollouts());
    }
}
