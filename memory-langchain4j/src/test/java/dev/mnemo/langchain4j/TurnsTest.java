package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.AnswerStream;
import dev.mnemo.AssistantMessage;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Who takes each call's answer. */
class TurnsTest {

    private static final AnswerStream UNUSED = new AnswerStream() {
        @Override
        public String push(String chunk) {
            return chunk;
        }

        @Override
        public AssistantMessage finish() {
            return new AssistantMessage("", Optional.empty(), 0);
        }
    };

    @Test
    void guardrailMarks_areTakenOnce_andStayBoundedWhenNoListenerTakesThem() {
        Turns turns = new Turns();
        UUID first = UUID.randomUUID();
        turns.answeredByGuardrail(first);
        for (int i = 0; i < Turns.MAX_TRACKED_CALLS; i++) {
            turns.answeredByGuardrail(UUID.randomUUID());
        }
        UUID last = UUID.randomUUID();
        turns.answeredByGuardrail(last);

        assertThat(turns.takeAnsweredByGuardrail(first)).as("evicted").isFalse();
        assertThat(turns.takeAnsweredByGuardrail(last)).isTrue();
        assertThat(turns.takeAnsweredByGuardrail(last)).isFalse();
    }

    @Test
    void secondVisibleStreamOnOneMemoryId_isRefused_untilTheFirstEnds() {
        Turns turns = new Turns();
        turns.startVisibleStream("m1", UNUSED);

        assertThatThrownBy(() -> turns.startVisibleStream("m1", UNUSED)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'m1'");
        turns.startVisibleStream("m2", UNUSED);
        turns.endVisibleStream("m1", UNUSED);
        turns.startVisibleStream("m1", UNUSED);
        assertThat(turns.visibleStreamRunning("m1")).isTrue();
    }
}
