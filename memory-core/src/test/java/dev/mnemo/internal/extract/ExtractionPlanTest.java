package dev.mnemo.internal.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ExtractionPlanTest {

    /** 70 % of 8,000 tokens at 4 bytes: 22,400 bytes a request. */
    private static final LanguageModel SMALL_WINDOW = new LanguageModel() {
        @Override
        public ModelResponse respond(ModelRequest request) {
            throw new AssertionError("not asked");
        }

        @Override
        public OptionalInt contextWindowTokens() {
            return OptionalInt.of(8_000);
        }
    };
    private static final long ROOM = 16_000;

    private static List<Row> turns(int count, int toolBytes) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(new Row(Row.Tier.HUMAN, "[human user]\nturn " + i));
            rows.add(new Row(Row.Tier.TOOL, "[tool]\nTOOL-" + i + " " + "x".repeat(toolBytes)));
            rows.add(new Row(Row.Tier.FINAL, "[assistant final]\ndone " + i));
        }
        return rows;
    }

    @Test
    void rowsThatFitOneRequest_areOneRequest() {
        ExtractionPlan plan = ExtractionPlan.of(turns(10, 100), ROOM, ExtractionBudget.of(SMALL_WINDOW), 250_000);

        assertThat(plan.inParts()).isFalse();
        assertThat(plan.rowsLeftOut()).isZero();
    }

    @Test
    void capAtOrBelowOneRequest_isOneRequestHoweverLargeTheRollout() {
        ExtractionPlan plan = ExtractionPlan.of(turns(400, 2_000), ROOM, ExtractionBudget.of(SMALL_WINDOW), 5_600);

        assertThat(plan.inParts()).isFalse();
        assertThat(plan.rows()).hasSize(1_200);
    }

    @Test
    void rolloutLargerThanOneRequestButUnderTheCap_isReadWholeInParts() {
        ExtractionPlan plan = ExtractionPlan.of(turns(100, 1_000), ROOM, ExtractionBudget.of(SMALL_WINDOW), 250_000);

        assertThat(plan.inParts()).isTrue();
        assertThat(plan.rows()).hasSize(300);
        assertThat(plan.coverage(7)).isEqualTo("Covered: rows 1–300 of 300 in 7 parts.");
    }

    @Test
    void rolloutOverTheCap_losesTheOldestToolRowsFirst_andItsCoverageSaysSo() {
        List<Row> rows = turns(400, 2_000);

        ExtractionPlan plan = ExtractionPlan.of(rows, ROOM, ExtractionBudget.of(SMALL_WINDOW), 40_000);

        assertThat(plan.inParts()).isTrue();
        assertThat(plan.rowsLeftOut()).isPositive();
        String kept = String.join("\n", plan.rows().stream().map(Row::text).toList());
        assertThat(kept).doesNotContain("TOOL-0 ").contains("TOOL-399 ", "turn 0", "turn 200", "done 399",
                "response items omitted");
        assertThat(plan.rows().stream().filter(r -> r.tier() == Row.Tier.HUMAN)).hasSize(400);
        assertThat(plan.coverage(12)).isEqualTo(String.format(java.util.Locale.ROOT, "Covered: %,d of 1,200 rows in 12"
                + " parts; %,d rows left out to stay within max_extraction_tokens_per_rollout.",
                1_200 - plan.rowsLeftOut(), plan.rowsLeftOut()));
    }

    @Test
    void rolloutJustOverTheCap_isKeptWholeWithShorterToolOutputs_andItsCoverageSaysSo() {
        ExtractionPlan plan = ExtractionPlan.of(turns(400, 2_000), ROOM, ExtractionBudget.of(SMALL_WINDOW), 100_000);

        assertThat(plan.inParts()).isTrue();
        assertThat(plan.rowsLeftOut()).isZero();
        assertThat(plan.rows()).hasSize(1_200);
        assertThat(plan.coverage(12)).isEqualTo("Covered: rows 1–1,200 of 1,200 in 12 parts; tool outputs shortened"
                + " to stay within max_extraction_tokens_per_rollout.");
    }

    @Test
    void fitRows_givesTheSameTextAsTheFittedRendering() {
        List<Row> rows = turns(50, 3_000);

        BudgetFitter.FittedRows fitted = BudgetFitter.fitRows(rows, 40_000);

        String joined = String.join("\n\n", fitted.rows().stream().map(Row::text).toList());
        assertThat(joined).isEqualTo(BudgetFitter.fit(rows, 40_000).text());
        assertThat(fitted.rowsDropped()).isEqualTo(BudgetFitter.fit(rows, 40_000).rowsDropped());
    }
}
