package dev.mnemo.internal.logs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Phase2FailureReason;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SkipReason;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each way a consolidation cannot run or fails is said in plain words in the Phase 2 log. */
class Phase2WordsTest {

    @Test
    void skippedOutcomes_sayWhyTheyCannotRunNow() {
        assertThat(Phase2Words.why(Phase2Outcome.SKIPPED_RUNNING, Optional.empty()))
                .isEqualTo(" (cannot run now: another worker holds the consolidation lock)");
        assertThat(Phase2Words.why(Phase2Outcome.SKIPPED_COOLDOWN, Optional.empty())).contains("six hours");
        assertThat(Phase2Words.why(Phase2Outcome.SKIPPED_RETRY_BACKOFF, Optional.empty())).contains("backoff");
    }

    @Test
    void everyFailureReason_hasItsOwnWords() {
        for (Phase2FailureReason reason : Phase2FailureReason.values()) {
            String words = Phase2Words.why(Phase2Outcome.FAILED, Optional.of(reason.code() + ": boom"));
            assertThat(words).as(reason.code()).startsWith(" (").isNotEqualTo(" (the consolidation failed)");
        }
        assertThat(Phase2Words.why(Phase2Outcome.FAILED, Optional.of("something else")))
                .isEqualTo(" (the consolidation failed)");
    }

    @Test
    void successAndNoChanges_needNoReason_andOnlyTellingStartupSkipsAreSaid() {
        assertThat(Phase2Words.why(Phase2Outcome.SUCCEEDED, Optional.empty())).isEmpty();
        assertThat(Phase2Words.why(Phase2Outcome.NO_WORKSPACE_CHANGES, Optional.empty())).isEmpty();
        assertThat(Phase2Words.startupSkip(SkipReason.GENERATION_DISABLED)).contains("generate_memories is off");
        assertThat(Phase2Words.startupSkip(SkipReason.EPHEMERAL_SESSION)).isEmpty();
        assertThat(Phase2Words.startupSkip(SkipReason.SUB_AGENT_SESSION)).isEmpty();
    }
}
