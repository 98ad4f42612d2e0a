package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.Phase2FailureReason;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.spi.MemoryEventListener;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that fails while a job is being completed (the result, or the failure, cannot be
 * recorded) never breaks the startup task: the report says what failed, the job is left to its
 * lease or marked failed, and {@code completion()} completes normally. Real SQLite and git; the
 * chosen store methods throw through {@link FaultyStore}.
 */
class StoreFailureAtCompletionTest {

    @TempDir
    Path home;

    private final FaultyStore faults = new FaultyStore();
    private final List<String> phase1Errors = new CopyOnWriteArrayList<>();
    private final List<Phase1JobOutcome> phase1Outcomes = new CopyOnWriteArrayList<>();
    private final MemoryEventListener listener = new MemoryEventListener() {
        @Override
        public void phase1JobFinished(String threadId, Phase1JobOutcome outcome, Optional<String> error) {
            phase1Outcomes.add(outcome);
            error.ifPresent(phase1Errors::add);
        }
    };

    @Test
    void phase1_storeFailingToRecordTheMemory_reportsTheJobFailedAndLeavesItToItsLease() throws Exception {
        try (Pipeline p = pipeline()) {
            p.recordSession("fix the flaky build");
            p.idle();
            faults.failOn("markStage1Succeeded");

            StartupReport report = startup(p);

            assertThat(report.phase1().claimed()).isEqualTo(1);
            assertThat(report.phase1().failed()).isEqualTo(1);
            assertThat(phase1Outcomes).containsExactly(Phase1JobOutcome.FAILED);
            assertThat(phase1Errors).singleElement().asString()
                    .startsWith("store error while recording the result").contains("markStage1Succeeded");
            // Not the rollout's fault: no failure recorded, no retry spent; the lease still holds it.
            assertThat(Sql.string(home, "SELECT status FROM jobs WHERE kind = 'memory_stage1'")).isEqualTo("running");
        }
    }

    @Test
    void phase1_storeFailingToRecordNoOutput_reportsTheJobFailed() throws Exception {
        try (Pipeline p = pipeline()) {
            p.recordSession("say hello");
            p.idle();
            p.model.extraction = request -> ScriptedModel.reply("", "", null);
            faults.failOn("markStage1SucceededNoOutput");

            StartupReport report = startup(p);

            assertThat(report.phase1().failed()).isEqualTo(1);
            assertThat(phase1Errors).singleElement().asString().contains("markStage1SucceededNoOutput");
        }
    }

    @Test
    void phase1_storeFailingToRecordAFailure_stillCompletesTheStartupTaskNormally() throws Exception {
        try (Pipeline p = pipeline()) {
            p.recordSession("fix the flaky build");
            p.idle();
            p.model.extraction = request -> "this is not the JSON the schema asks for";
            faults.failOn("markStage1Failed");

            StartupReport report = startup(p);

            assertThat(report.phase1().claimed()).isEqualTo(1);
            assertThat(report.phase1().failed()).isEqualTo(1);
            assertThat(phase1Errors).singleElement().asString().startsWith("invalid model reply");
            assertThat(Sql.string(home, "SELECT status FROM jobs WHERE kind = 'memory_stage1'")).isEqualTo("running");
        }
    }

    @Test
    void phase2_storeFailingToRecordSuccess_reportsFailedRecordResultAndRecordsTheFailure() throws Exception {
        try (Pipeline p = pipeline()) {
            p.recordSession("fix the flaky build");
            p.idle();
            faults.failOn("markPhase2Succeeded");

            StartupReport report = startup(p);

            assertThat(report.phase1().succeeded()).isEqualTo(1);
            assertThat(report.phase2().outcome()).isEqualTo(Phase2Outcome.FAILED);
            assertThat(report.phase2().failureReason()).contains(Phase2FailureReason.FAILED_RECORD_RESULT);
            assertThat(report.phase2().failure()).hasValueSatisfying(f -> assertThat(f)
                    .startsWith("failed_record_result: ").contains("markPhase2Succeeded"));
            assertThat(Sql.string(home, "SELECT status FROM jobs WHERE kind = 'memory_consolidate_global'"))
                    .isEqualTo("error");
        }
    }

    @Test
    void phase2_storeFailingOnEveryCompletion_leavesTheJobToItsLeaseAndCompletesNormally() throws Exception {
        try (Pipeline p = pipeline()) {
            p.recordSession("fix the flaky build");
            p.idle();
            faults.failOn("markPhase2Succeeded", "markPhase2Failed", "markPhase2FailedIfUnowned");

            StartupReport report = startup(p);

            assertThat(report.phase2().failureReason()).contains(Phase2FailureReason.FAILED_RECORD_RESULT);
            assertThat(Sql.string(home, "SELECT status FROM jobs WHERE kind = 'memory_consolidate_global'"))
                    .isEqualTo("running");
        }
    }

    @Test
    void phase2_storeFailingToRecordAFailure_completesNormallyWithTheOriginalReason() throws Exception {
        try (Pipeline p = pipeline()) {
            p.recordSession("fix the flaky build");
            p.idle();
            p.model.consolidation = request -> { throw new IllegalStateException("agent exploded"); };
            faults.failOn("markPhase2Failed", "markPhase2FailedIfUnowned");

            StartupReport report = startup(p);

            assertThat(report.phase2().outcome()).isEqualTo(Phase2Outcome.FAILED);
            assertThat(report.phase2().failureDetail()).hasValueSatisfying(d -> assertThat(d).isNotBlank());
        }
    }

    private Pipeline pipeline() {
        return new Pipeline(home, MemoriesConfig.defaults(), null, listener, faults);
    }

    private static StartupReport startup(Pipeline p) throws Exception {
        return p.engine.startStartupTask(SessionContext.root("current-thread")).completion().get(60, TimeUnit.SECONDS);
    }
}
