package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad option value is bad usage (exit 2) with a message naming the value and the forms accepted,
 * for every command that checks its values itself, as docs/operations.md promises.
 */
class OptionValuesTest {

    @TempDir
    Path temp;

    private MnemoCliTest.Result mnemo(String... args) {
        return MnemoCliTest.run(temp, null, args);
    }

    @Test
    void logsSince_notADurationOrInstant_isExit2_namingTheValueAndTheForms() {
        MnemoCliTest.Result r = mnemo("logs", "--since", "yesterday");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("'yesterday'", "30m", "PT2H", "2026-06-01T12:00:00Z")
                .doesNotContain("-v for details");
    }

    @Test
    void logsSince_aDurationTooLongToCount_isExit2() {
        MnemoCliTest.Result digits = mnemo("logs", "--since", "99999999999999999999d");
        MnemoCliTest.Result pastTheCalendar = mnemo("logs", "--since", "P999999999999D");

        assertThat(digits.exitCode()).as(digits.err()).isEqualTo(2);
        assertThat(digits.err()).contains("'99999999999999999999d'");
        assertThat(pastTheCalendar.exitCode()).as(pastTheCalendar.err()).isEqualTo(2);
    }

    @Test
    void logsLevel_unknown_isExit2_namingTheValueAndTheLevels() {
        MnemoCliTest.Result r = mnemo("logs", "--level", "LOUD");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("'LOUD'", "TRACE, DEBUG, INFO, WARN or ERROR");
    }

    @Test
    void logsLimit_belowOne_isExit2() {
        MnemoCliTest.Result r = mnemo("logs", "--limit", "0");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("--limit", "at least 1", "was 0");
    }

    @Test
    void evalLimitAndConcurrency_outOfRange_areExit2_beforeAskingForAModel() {
        MnemoCliTest.Result limit = mnemo("eval", "--out", temp.resolve("run").toString(), "--limit", "0");
        MnemoCliTest.Result concurrency = mnemo("eval", "--out", temp.resolve("run").toString(), "--concurrency", "65");

        assertThat(limit.exitCode()).as(limit.err()).isEqualTo(2);
        assertThat(limit.err()).contains("--limit", "at least 1", "was 0").doesNotContain("needs a model");
        assertThat(concurrency.exitCode()).as(concurrency.err()).isEqualTo(2);
        assertThat(concurrency.err()).contains("--concurrency", "1 to 64", "was 65");
    }

    @Test
    void numericOptions_givenText_areExit2_forEveryCommandThatTakesOne() {
        String[][] calls = {{"logs", "--limit", "many"}, {"inputs", "--limit", "many"}, {"ui", "--port", "http"},
            {"mcp", "--max-output-tokens", "lots"}, {"eval", "--out", "x", "--concurrency", "two"}};
        for (String[] call : calls) {
            MnemoCliTest.Result r = mnemo(call);

            assertThat(r.exitCode()).as(String.join(" ", call) + ": " + r.err()).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", call)).contains("'" + call[call.length - 1] + "'");
        }
    }
}
