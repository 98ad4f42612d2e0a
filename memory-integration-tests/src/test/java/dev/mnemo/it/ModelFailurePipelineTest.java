package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ModelFailure;
import dev.mnemo.Phase1Report;
import dev.mnemo.llm.ModelException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Phase 1 failure caused by the model (unreachable, unauthorised, rate limited, rejecting the
 * request) is not the rollout's fault: the job keeps its retries, comes back after a short backoff,
 * and {@code status()} says the model is failing until an extraction succeeds. A failure that is the
 * rollout's (too large for the context window) spends a retry with Codex's hour of backoff.
 */
class ModelFailurePipelineTest {

    @TempDir
    Path home;

    private static String retriesLeft(Path home) {
        return Sql.string(home, "SELECT retry_remaining FROM jobs WHERE kind = 'memory_stage1'");
    }

    @Test
    void unreachableModel_keepsTheRolloutsRetriesAndStatusSaysTheModelIsFailing() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("set up the build");
            p.idle();
            p.model.extraction = request -> {
                throw new ModelException(ModelException.Reason.NETWORK,
                        "could not reach http://localhost:11434/v1/chat/completions: ConnectException");
            };

            for (int run = 0; run < 4; run++) {
                Phase1Report report = p.engine.admin().runPhase1("current-thread");
                assertThat(report.failed()).as("run %s", run).isEqualTo(1);
                assertThat(p.engine.admin().runPhase1("current-thread").claimed()).as("inside the backoff").isZero();
                p.clock.advance(Duration.ofMinutes(5));
            }

            assertThat(retriesLeft(home)).isEqualTo("3");
            assertThat(Sql.string(home, "SELECT last_error FROM jobs WHERE kind = 'memory_stage1'"))
                    .startsWith("model error (NETWORK): could not reach");
            ModelFailure failure = p.engine.admin().status().lastModelFailure().orElseThrow();
            assertThat(failure.reason()).isEqualTo(ModelException.Reason.NETWORK);
            assertThat(failure.message()).contains("could not reach http://localhost:11434");
            assertThat(failure.at()).isEqualTo(p.clock.instant().minus(Duration.ofMinutes(5)));

            p.model.extraction = request -> ScriptedModel.reply("m", "s", null);
            assertThat(p.engine.admin().runPhase1("current-thread").succeeded()).isEqualTo(1);
            assertThat(p.engine.admin().status().lastModelFailure()).isEmpty();
            assertThat(p.store.stage1Output(id)).isPresent();
        }
    }

    @Test
    void everyReasonThatIsTheModelsFault_keepsTheRetries() {
        for (ModelException.Reason reason : new ModelException.Reason[] {ModelException.Reason.AUTHENTICATION,
                ModelException.Reason.RATE_LIMITED, ModelException.Reason.SERVER, ModelException.Reason.TIMEOUT,
                ModelException.Reason.INVALID_REQUEST}) {
            Path reasonHome = home.resolve(reason.name());
            try (Pipeline p = new Pipeline(reasonHome)) {
                p.recordSession("work");
                p.idle();
                p.model.extraction = request -> {
                    throw new ModelException(reason, "the model said no");
                };

                p.engine.admin().runPhase1("current-thread");

                assertThat(retriesLeft(reasonHome)).as("%s", reason).isEqualTo("3");
                assertThat(p.engine.admin().status().lastModelFailure()).as("%s", reason)
                        .hasValueSatisfying(failure -> assertThat(failure.reason()).isEqualTo(reason));
            }
        }
    }

    @Test
    void rolloutTooLargeForTheContextWindow_spendsARetryAndBacksOffAnHour() {
        try (Pipeline p = new Pipeline(home)) {
            p.recordSession("a very long session");
            p.idle();
            p.model.extraction = request -> {
                throw new ModelException(ModelException.Reason.CONTEXT_WINDOW_EXCEEDED, "maximum context length");
            };

            p.engine.admin().runPhase1("current-thread");

            assertThat(retriesLeft(home)).isEqualTo("2");
            assertThat(p.engine.admin().status().lastModelFailure()).isEmpty();
            p.clock.advance(Duration.ofMinutes(59));
            assertThat(p.engine.admin().runPhase1("current-thread").claimed()).isZero();
        }
    }
}
