package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.DeadJob;
import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.llm.ModelException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failure that is the rollout's (content the provider filters, a reply that never matches the
 * schema) spends a retry each time, and once the retries are gone the job is dead, not silently
 * gone: {@code admin().deadJobs()}, {@code status()} and the thread's log say so with the reason,
 * and {@code retry} / {@code retryDead} put it back. Failures that are the model's never kill a job.
 */
class DeadJobPipelineTest {

    private static final String THREAD = "chat-1";

    @TempDir
    Path home;

    private final MutableClock clock = new MutableClock(Pipeline.T0);
    private final ScriptedModel model = new ScriptedModel();

    private MemoryEngine engine() {
        MemoryEngine engine = MemoryEngine.builder().home(home).model(model).clock(clock).build();
        try (RecordedSession s = engine.sessions().start(SessionContext.root(THREAD))) {
            s.userMessage("fix the flaky build");
            s.assistantMessage("done");
        }
        clock.advance(Duration.ofHours(7));
        return engine;
    }

    /** Runs Phase 1 once per retry, past each hour of backoff; returns the failed count of each run. */
    private List<Integer> runUntilRetriesAreGone(MemoryEngine engine) {
        List<Integer> failed = new java.util.ArrayList<>();
        for (int run = 0; run < 3; run++) {
            failed.add(engine.admin().runPhase1("current").failed());
            clock.advance(Duration.ofHours(1));
        }
        return failed;
    }

    private static List<String> log(MemoryEngine engine) {
        engine.threadLogs().flush();
        return engine.threadLogs().query(THREAD, 100).stream().map(ThreadLogEntry::message).toList();
    }

    @Test
    void contentFilteredEveryTime_killsTheJob_whichStatusDeadJobsAndTheThreadLogShow_untilARetryExtractsIt() {
        try (MemoryEngine engine = engine()) {
            model.extraction = request -> {
                throw new ModelException(ModelException.Reason.CONTENT_FILTERED, "the reply was filtered");
            };

            assertThat(runUntilRetriesAreGone(engine)).containsExactly(1, 1, 1);

            assertThat(engine.admin().runPhase1("current").claimed()).as("dead: never claimed again").isZero();
            assertThat(engine.admin().deadJobs()).singleElement().satisfies(job -> {
                assertThat(job.threadId()).isEqualTo(THREAD);
                assertThat(job.reason()).isEqualTo("model error (CONTENT_FILTERED): the reply was filtered");
                assertThat(job.failures()).isEqualTo(3);
            });
            assertThat(engine.admin().status().deadJobs()).isEqualTo(1);
            assertThat(log(engine)).containsOnlyOnce("stage-1 job dead after 3 failures: model error (CONTENT_FILTERED):"
                    + " the reply was filtered (`mnemo jobs retry chat-1` puts it back)");

            model.extraction = request -> ScriptedModel.reply("a memory", "a summary", "a-slug");
            assertThat(engine.admin().retry(THREAD)).isTrue();
            assertThat(engine.admin().retry(THREAD)).as("already pending").isFalse();
            assertThat(engine.admin().runPhase1("current").succeeded()).isEqualTo(1);

            assertThat(engine.admin().deadJobs()).isEmpty();
            assertThat(engine.admin().status().deadJobs()).isZero();
            assertThat(log(engine)).anyMatch(line -> line.startsWith("stage-1 job retried: claimable now with its "
                    + "retries restored (dead since "));
        }
    }

    @Test
    void aReplyThatNeverMatchesTheSchema_killsTheJob_andRetryDeadPutsItBack() {
        try (MemoryEngine engine = engine()) {
            model.extraction = request -> "this is not the JSON the schema asks for";

            runUntilRetriesAreGone(engine);

            List<DeadJob> dead = engine.admin().deadJobs();
            assertThat(dead).extracting(DeadJob::threadId).containsExactly(THREAD);
            assertThat(dead.get(0).reason()).startsWith("invalid model reply: ");
            assertThat(engine.admin().retryDead()).isEqualTo(1);
            assertThat(engine.admin().retryDead()).isZero();
            assertThat(engine.admin().deadJobs()).isEmpty();
            assertThat(engine.admin().runPhase1("current").claimed()).isEqualTo(1);
        }
    }

    @Test
    void failuresThatAreTheModelsFault_neverKillAJob() {
        try (MemoryEngine engine = engine()) {
            for (ModelException.Reason reason : new ModelException.Reason[] {ModelException.Reason.NETWORK,
                    ModelException.Reason.TIMEOUT, ModelException.Reason.SERVER, ModelException.Reason.RATE_LIMITED,
                    ModelException.Reason.AUTHENTICATION, ModelException.Reason.INVALID_REQUEST}) {
                model.extraction = request -> {
                    throw new ModelException(reason, "the model said no");
                };
                assertThat(runUntilRetriesAreGone(engine)).as("%s", reason).containsExactly(1, 1, 1);
            }

            assertThat(engine.admin().deadJobs()).isEmpty();
            assertThat(engine.admin().status().deadJobs()).isZero();
            assertThat(log(engine)).noneMatch(line -> line.contains("dead"));
        }
    }
}
