package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mnemo.Approval;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.ProjectKeys;
import dev.mnemo.ThreadLogEntry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The console in a real browser (Debian's headless Chromium through Selenium): a person opens it
 * with the token, reads a memory, follows it to its conversation, rolls back, forgets, approves
 * and refreshes, and a script planted in a memory never runs. Over a real home (SQLite, git) with
 * a scripted model standing in for the real one. Skipped only when the browser is not installed.
 */
class ConsoleBrowserTest {

    @TempDir
    static Path profile;

    private static Browser browser;

    @TempDir
    Path temp;

    private ConsoleHome home;

    @BeforeAll
    static void startBrowser() {
        assumeTrue(Browser.available(), Browser.ABSENT);
        browser = new Browser(profile);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @AfterEach
    void closeHome() {
        if (home != null) {
            home.close();
        }
    }

    private void homeWithHistory() {
        home = new ConsoleHome(temp.resolve("home")).withHistory();
    }

    private void open(String path) {
        browser.driver.get("http://127.0.0.1:" + home.console.port() + path);
    }

    private String text(String css) {
        return browser.driver.findElement(By.cssSelector(css)).getText();
    }

    private void acceptConfirmation() {
        browser.waiting().until(ExpectedConditions.alertIsPresent()).accept();
    }

    @Test
    void opensWithTheToken_andTheAddressBarNoLongerShowsIt() {
        homeWithHistory();
        home.plant("projects/" + ProjectKeys.slug("acme-shop") + "/memory_summary.md",
                "v1\n\n## What's in Memory\n" + "- The shop's database is PostgreSQL 16.\n".repeat(60));

        browser.driver.get(home.console.url().toString());

        assertThat(browser.driver.getCurrentUrl()).isEqualTo("http://127.0.0.1:" + home.console.port() + "/");
        assertThat(browser.driver.getTitle()).isEqualTo("Overview · Mnemo console");
        assertThat(text(".cards")).containsIgnoringCase("Conversations").containsIgnoringCase("Consolidations");
        assertThat(browser.driver.findElements(By.cssSelector(".budget .scope"))).extracting(WebElement::getText)
                .containsExactly("global, in sessions of no project", "project acme-shop",
                        "global, in acme-shop's sessions");
        browser.screenshot("overview");
    }

    @Test
    void aPlantedMemory_isRenderedOnTheMemoryPage() {
        homeWithHistory();
        browser.driver.get(home.console.url().toString());

        browser.driver.findElement(By.linkText("Memory")).click();
        browser.driver.findElement(By.linkText("MEMORY.md")).click();

        assertThat(browser.driver.findElement(By.cssSelector("article .markdown h1")).getText())
                .isEqualTo("Task Group: everything");
        assertThat(text("article .markdown")).contains("The user indents with tabs, never spaces; four columns wide.");
        home.plant("projects/" + ProjectKeys.slug("acme-shop") + "/memory_summary.md",
                "## What's in Memory\n- The shop's database is PostgreSQL 16.\n");
        open("/memory");
        assertThat(text("nav.tree span.project")).isEqualTo("acme-shop/");
        browser.screenshot("memory");
    }

    @Test
    void aMemoryLeadsToTheConversationItCameFrom_whosePageShowsItsLog() {
        home = ConsoleHome.withThreadLogs(temp.resolve("home")).withHistory();
        home.engine.threadLogs().append(new ThreadLogEntry("chat-tabs", ConsoleHome.T0, "WARN", "app::test",
                "<b>not bold</b> and kept"));
        home.engine.threadLogs().append(new ThreadLogEntry("chat-tabs", ConsoleHome.T0, "INFO",
                MemoryReceipt.LOG_TARGET, new MemoryReceipt("chat-tabs", List.of(new MemoryReceipt.InjectedFile(
                        "global", "summary", "memory_summary.md", "ab".repeat(32), 900, 230, true)),
                        List.of(new MemoryReceipt.ToolRead("memories_read", "<b>MEMORY.md</b>", 1_200, false)),
                        List.of()).toLogMessage()));
        home.engine.threadLogs().flush();
        browser.driver.get(home.console.url().toString());
        open("/memory");
        List<WebElement> summaries = browser.driver.findElements(By.cssSelector("nav.tree a[title^='rollout_summaries/']"));
        summaries.stream().filter(a -> a.getText().contains("tabs")).findFirst().orElseThrow().click();

        browser.driver.findElement(By.cssSelector("a.provenance")).click();

        browser.waiting().until(ExpectedConditions.titleContains("Provenance"));
        assertThat(text(".transcript")).contains("Please remember: tabs, never spaces.", "Four columns wide, yes.");
        assertThat(text("main")).contains("chat-tabs", "The user indents with tabs");
        assertThat(text("section.logs h2")).isEqualTo("Log");
        assertThat(text("section.logs table.logs")).contains("WARN", "app::test", "<b>not bold</b> and kept");
        assertThat(browser.driver.findElements(By.cssSelector("section.logs b"))).isEmpty();
        assertThat(text("section.receipts article.receipt div.given")).contains("memory_summary.md", "cut", "230");
        assertThat(text("section.receipts article.receipt div.read")).contains("memories_read", "<b>MEMORY.md</b>");
        assertThat(text("section.receipts article.receipt div.cited")).contains("The answer cited no memory.");
        assertThat(browser.driver.findElements(By.cssSelector("section.receipts b"))).isEmpty();
        browser.screenshot("provenance");
    }

    @Test
    void theRollbackButton_bringsBackTheOldSummary() {
        homeWithHistory();
        browser.driver.get(home.console.url().toString());
        open("/memory");
        assertThat(text("article .markdown")).contains("chat-pytest");
        open("/history");
        browser.screenshot("history");

        browser.driver.findElement(By.cssSelector("button.rollback")).click();
        acceptConfirmation();

        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".flash"),
                "restored"));
        open("/memory");
        assertThat(text("article .markdown")).contains("chat-tabs").doesNotContain("chat-pytest");
    }

    @Test
    void forgettingAConversation_takesItsTextOffTheMemoryPage() {
        homeWithHistory();
        browser.driver.get(home.console.url().toString());
        open("/memory?path=MEMORY.md");
        assertThat(text("article .markdown")).contains("pytest -q");
        open("/conversations");
        browser.screenshot("conversations");

        browser.driver.findElement(By.cssSelector("tr[data-thread='chat-pytest'] button.forget")).click();
        acceptConfirmation();

        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".flash"),
                "forgotten"));
        open("/memory?path=MEMORY.md");
        assertThat(text("article .markdown")).doesNotContain("pytest -q").contains("tabs, never spaces");
    }

    @Test
    void approvingAPendingMemory_consolidatesItAfterRefresh() {
        home = new ConsoleHome(temp.resolve("home"), MemoriesConfig.builder().approval(Approval.ASK).build());
        home.remember("deploy", "- Deploys go out with `make release` on Fridays before noon only.");
        home.recordSession("chat-deploy", "How do we deploy? make release, but only Friday mornings.");
        home.idle();
        browser.driver.get(home.console.url().toString());
        open("/refresh");

        refreshNow();
        open("/pending");
        assertThat(text("ol.pending")).contains("Deploys go out with make release");
        browser.screenshot("pending");
        browser.driver.findElement(By.cssSelector("button.approve")).click();
        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".flash"),
                "Approved"));
        open("/refresh");
        refreshNow();

        assertThat(text(".last-refresh .outcome")).startsWith("succeeded");
        browser.screenshot("refresh");
        open("/memory?path=MEMORY.md");
        assertThat(text("article .markdown")).contains("Deploys go out with make release on Fridays before noon only.");
    }

    /** Clicks Refresh now and waits until the page shows the finished run. */
    private void refreshNow() {
        browser.driver.findElement(By.cssSelector("button.refresh")).click();
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".last-refresh")));
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("button.refresh")));
    }

    @Test
    void aLinkToThisMachine_isNoLink_andTheCookieAloneReadsNoData() {
        homeWithHistory();
        home.plant("skills/local.md", """
                # Links

                Open [the admin page](http://127.0.0.1:9/steal) or <http://localhost:9/> or [public](https://example.com/).
                """);
        browser.driver.get(home.console.url().toString());
        open("/memory?path=skills/local.md");

        assertThat(browser.driver.findElements(By.cssSelector("article .markdown a"))).extracting(e -> e.getAttribute("href"))
                .containsExactly("https://example.com/");
        assertThat(browser.driver.findElements(By.cssSelector("article .markdown span.link-local")))
                .extracting(WebElement::getText).containsExactly("the admin page", "http://localhost:9/");
        browser.driver.findElement(By.cssSelector("span.link-local")).click();
        assertThat(browser.driver.getCurrentUrl()).endsWith("/memory?path=skills/local.md");

        Object withoutToken = browser.driver.executeAsyncScript("var done = arguments[arguments.length - 1];"
                + " fetch('/refresh/status', {credentials: 'same-origin'}).then(function (r) { done(r.status); });");
        Object withToken = browser.driver.executeAsyncScript("var done = arguments[arguments.length - 1];"
                + " var csrf = document.querySelector('meta[name=\"mnemo-csrf\"]').getAttribute('content');"
                + " fetch('/refresh/status', {credentials: 'same-origin', headers: {'X-Mnemo-Csrf': csrf}})"
                + ".then(function (r) { done(r.status); });");
        assertThat(((Number) withoutToken).intValue()).isEqualTo(403);
        assertThat(((Number) withToken).intValue()).isEqualTo(200);
    }

    @Test
    void aScriptPlantedInAMemory_neverRuns() {
        homeWithHistory();
        home.plant("skills/planted.md", """
                # Planted by a poisoned conversation

                <script>document.title = 'pwned'; window.mnemoPwned = true;</script>

                <img src="x" onerror="document.title = 'pwned'; window.mnemoPwned = true">

                Click [here](javascript:document.title='clicked';window.mnemoPwned=true) for more.
                """);
        browser.driver.get(home.console.url().toString());

        open("/memory?path=skills/planted.md");
        browser.driver.findElement(By.linkText("here")).click();

        assertThat(browser.driver.getTitle()).isEqualTo("Memory · Mnemo console");
        assertThat(browser.driver.executeScript("return typeof window.mnemoPwned")).isEqualTo("undefined");
        assertThat(text("article .markdown")).contains("<script>document.title = 'pwned'");
        assertThat(browser.driver.getCurrentUrl()).endsWith("/memory?path=skills/planted.md");
        try {
            browser.driver.switchTo().alert();
            throw new AssertionError("an alert opened");
        } catch (NoAlertPresentException expected) {
            // nothing ran
        }
    }
}
