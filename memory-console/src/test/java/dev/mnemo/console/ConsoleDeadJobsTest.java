package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The overview's dead jobs over a real home: a conversation whose every extraction retry failed is
 * shown with its reason (escaped) and a Retry button, and the retry actions put jobs back.
 */
class ConsoleDeadJobsTest {

    @TempDir
    Path temp;

    private ConsoleHome home;
    private ConsoleClient client;

    @BeforeEach
    void openHome() {
        home = new ConsoleHome(temp.resolve("home"));
        client = new ConsoleClient(home.console);
    }

    @AfterEach
    void closeHome() {
        home.close();
    }

    /** Registers {@code threadId} and fails its job until no retry is left, with {@code reason}. */
    private void killJob(String threadId, String reason) {
        Instant version = home.clock.instant().minus(Duration.ofHours(8));
        home.store.upsertThread(ThreadInfo.builder(threadId).rolloutPath(temp.resolve(threadId + ".jsonl"))
                .createdAt(version.minusSeconds(60)).updatedAt(version).source("cli").preview("fix it").build());
        for (int attempt = 1; attempt <= 3; attempt++) {
            JobClaim claim = home.store.tryClaimStage1Job(threadId, "worker", version, Duration.ofHours(1), 64,
                    home.clock.instant());
            assertThat(claim.outcome()).isEqualTo(ClaimOutcome.CLAIMED);
            home.store.markStage1Failed(threadId, claim.token(), reason, Duration.ZERO, home.clock.instant());
        }
    }

    @Test
    void overview_showsEachDeadJobWithItsReasonEscaped_andARetryButton() {
        killJob("chat-dead", "model error (CONTENT_FILTERED): <script>alert(1)</script>");

        Document page = client.page("/");

        Element job = page.selectFirst("li[data-dead-job=chat-dead]");
        assertThat(job).isNotNull();
        assertThat(job.select(".reason").text()).isEqualTo("model error (CONTENT_FILTERED): <script>alert(1)</script>");
        assertThat(job.select("script")).isEmpty();
        assertThat(job.text()).contains("after 3 failures");
        assertThat(job.select("form[action=/jobs/retry] input[name=thread]").attr("value")).isEqualTo("chat-dead");
        assertThat(page.select("form[action=/jobs/retry-dead]")).as("one dead job: no Retry all").isEmpty();
    }

    @Test
    void retry_putsTheJobBack_andTheOverviewSaysSo() {
        killJob("chat-dead", "invalid model reply: not JSON");

        HttpResponse<String> retried = client.post("/jobs/retry", "thread", "chat-dead");

        assertThat(retried.statusCode()).isEqualTo(303);
        assertThat(home.engine.admin().deadJobs()).isEmpty();
        Document page = client.page("/");
        assertThat(page.select("p.flash").text()).contains("chat-dead will be extracted again");
        assertThat(page.select("p.dead-jobs").text()).startsWith("None");
    }

    @Test
    void retryAll_putsBackEveryDeadJob_andRetryOfAHealthyConversationChangesNothing() {
        killJob("chat-a", "invalid model reply: not JSON");
        killJob("chat-b", "invalid model reply: not JSON");
        assertThat(client.page("/").select("form[action=/jobs/retry-dead] button").text()).isEqualTo("Retry all 2");

        client.post("/jobs/retry-dead");
        assertThat(home.engine.admin().deadJobs()).isEmpty();
        assertThat(client.page("/").select("p.flash").text()).contains("2 dead job(s) put back");

        client.post("/jobs/retry", "thread", "chat-a");
        assertThat(client.page("/").select("p.flash.failed").text()).contains("chat-a has no failed job");
    }
}
