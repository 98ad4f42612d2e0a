package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The long-session scenario offline, with a scripted model whose window is small (the harness, not a model). */
class LongSessionRunTest {

    private static final int WINDOW = 8_000;

    @TempDir
    Path runDir;

    @Test
    void sessionTenWindowsLong_readInPartsKeepsEveryFact_theTieredFitAloneLosesSome() {
        LongSessionModel model = new LongSessionModel(WINDOW);

        EvalReport.LongSession report = new LongSessionRun(model, runDir).run();

        assertThat(report.windowTokens()).isEqualTo(WINDOW);
        assertThat(report.sessionBytes()).isGreaterThan(9L * WINDOW * 4);
        EvalReport.LongSessionCondition chunked = report.condition("chunked");
        EvalReport.LongSessionCondition tiered = report.condition("tiered_fit");
        assertThat(chunked.recalled()).isEqualTo(12);
        assertThat(chunked.coverage()).startsWith("Covered: rows 1–");
        assertThat(chunked.requests()).isGreaterThan(10);
        assertThat(tiered.recalled()).isLessThan(12);
        assertThat(tiered.requests()).isEqualTo(1);
        assertThat(tiered.coverage()).isEmpty();
        assertThat(chunked.inputTokens()).isGreaterThan(tiered.inputTokens());
        assertThat(model.largestRequest.get()).isLessThanOrEqualTo(WINDOW);
    }

    @Test
    void modelWithoutAKnownWindow_skipsTheScenario() {
        EvalReport.LongSession report = new LongSessionRun(request -> {
            throw new AssertionError("asked");
        }, runDir).run();

        assertThat(report.conditions()).isEmpty();
    }
}
