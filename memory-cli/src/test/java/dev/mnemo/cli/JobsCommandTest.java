package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mnemo status} shows dead Phase 1 jobs, {@code mnemo jobs} lists them and {@code mnemo jobs
 * retry THREAD_ID | --dead} puts them back, on a real home whose jobs were failed through its store.
 */
class JobsCommandTest {

    private static final Instant VERSION = Instant.parse("2026-05-01T10:00:00Z");
    private static final Duration LEASE = Duration.ofHours(1);

    @TempDir
    Path temp;

    private MnemoCliTest.Result mnemo(String... args) {
        return MnemoCliTest.run(temp, null, args);
    }

    /** A home with thread {@code dead-1} whose three attempts failed and {@code healthy-1} never claimed. */
    private String home() throws IOException {
        Path home = Files.createDirectories(temp.resolve("home"));
        try (SqliteMemoryStore store = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"))) {
            for (String id : new String[] {"dead-1", "healthy-1"}) {
                store.upsertThread(ThreadInfo.builder(id).rolloutPath(home.resolve(id + ".jsonl"))
                        .createdAt(VERSION.minusSeconds(60)).updatedAt(VERSION).source("cli").preview("fix it").build());
            }
            Instant now = VERSION.plus(Duration.ofHours(8));
            for (int attempt = 1; attempt <= 3; attempt++) {
                JobClaim claim = store.tryClaimStage1Job("dead-1", "worker", VERSION, LEASE, 64, now);
                assertThat(claim.outcome()).isEqualTo(ClaimOutcome.CLAIMED);
                store.markStage1Failed("dead-1", claim.token(), "model error (CONTENT_FILTERED): filtered", Duration.ZERO,
                        now);
            }
        }
        return home.toString();
    }

    @Test
    void status_showsTheDeadJobWithItsReason_andJobsListsIt() throws IOException {
        String home = home();

        MnemoCliTest.Result status = mnemo("--home", home, "status");
        MnemoCliTest.Result json = mnemo("--home", home, "status", "--json");
        MnemoCliTest.Result jobs = mnemo("--home", home, "jobs");

        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(status.out()).contains("Dead jobs:           1 (every retry failed;")
                .containsPattern("(?m)^  dead-1 .* 3 failures: model error \\(CONTENT_FILTERED\\): filtered$");
        assertThat(json.out()).contains("\"dead_jobs\" : {", "\"count\" : 1", "\"thread_id\" : \"dead-1\"");
        assertThat(jobs.exitCode()).as(jobs.err()).isZero();
        assertThat(jobs.out()).contains("dead-1", "model error (CONTENT_FILTERED): filtered", "1 dead job(s)");
    }

    @Test
    void retryingTheDeadThread_putsItBack_andAHealthyThreadHasNothingToRetry() throws IOException {
        String home = home();

        MnemoCliTest.Result retried = mnemo("--home", home, "jobs", "retry", "dead-1");
        MnemoCliTest.Result healthy = mnemo("--home", home, "jobs", "retry", "healthy-1");

        assertThat(retried.exitCode()).as(retried.err()).isZero();
        assertThat(retried.out()).startsWith("thread dead-1: job put back, claimable now");
        assertThat(healthy.exitCode()).as(healthy.err()).isZero();
        assertThat(healthy.out()).contains("healthy-1 has no failed job");
        assertThat(mnemo("--home", home, "status").out()).contains("Dead jobs:           none");
        assertThat(mnemo("--home", home, "jobs").out()).contains("no dead jobs");
    }

    @Test
    void retryDead_putsBackEveryDeadJobAndSaysHowMany() throws IOException {
        String home = home();

        MnemoCliTest.Result first = mnemo("--home", home, "jobs", "retry", "--dead");
        MnemoCliTest.Result second = mnemo("--home", home, "jobs", "retry", "--dead");

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).startsWith("1 dead job(s) put back");
        assertThat(second.out()).contains("no dead jobs to retry");
    }

    @Test
    void retryOfAnUnknownThreadFails_andRetryWithoutAThreadOrWithBothIsAUsageError() throws IOException {
        String home = home();

        MnemoCliTest.Result unknown = mnemo("--home", home, "jobs", "retry", "nope");
        MnemoCliTest.Result neither = mnemo("--home", home, "jobs", "retry");
        MnemoCliTest.Result both = mnemo("--home", home, "jobs", "retry", "dead-1", "--dead");

        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("no thread with id nope");
        assertThat(neither.exitCode()).isEqualTo(2);
        assertThat(neither.err()).contains("takes a THREAD_ID or --dead");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(mnemo("jobs", "retry", "--help").out()).contains("--dead", "THREAD_ID");
    }
}
