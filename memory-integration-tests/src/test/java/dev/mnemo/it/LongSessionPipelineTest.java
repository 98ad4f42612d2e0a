package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase1Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.spi.Stage1Output;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session many times the model's window, through a model whose window is small and whose
 * tokenizer may count more than 4 bytes a token: every planted fact reaches the stored memory, no
 * request exceeds the window, and nothing about the size fails the job or spends a retry.
 */
class LongSessionPipelineTest {

    private static final int WINDOW = 8_000;
    private static final int TURNS = 320;

    @TempDir
    Path home;

    /** A session of about 20 windows (4 bytes a token): 12 facts, four each at its start, middle and end. */
    private static String longSession(Pipeline p) {
        String id = Pipeline.uuidV7(p.clock.instant());
        try (RecordedSession s = p.engine.sessions().start(SessionContext.root(id))) {
            int fact = 0;
            for (int turn = 0; turn < TURNS; turn++) {
                boolean planted = turn < 4 || (turn >= TURNS / 2 - 2 && turn < TURNS / 2 + 2) || turn >= TURNS - 4;
                String text = planted ? String.format(Locale.ROOT, "Remember FACT-%04d for later. ", ++fact) : "";
                s.userMessage(text + "turn " + turn + " " + "lorem ipsum dolor sit amet ".repeat(40));
                s.assistantMessage("Done with turn " + turn + ": " + "consectetur adipiscing elit ".repeat(30));
            }
        }
        return id;
    }

    private static TreeSet<String> facts(String text) {
        TreeSet<String> facts = new TreeSet<>();
        Matcher m = WindowModel.FACT.matcher(text);
        while (m.find()) {
            facts.add(m.group());
        }
        return facts;
    }

    private static String retriesLeft(Path home) {
        return Sql.string(home, "SELECT retry_remaining FROM jobs WHERE kind = 'memory_stage1'");
    }

    private void assertEveryFactKept(Pipeline p, String id, WindowModel model) {
        Stage1Output row = p.store.stage1Output(id).orElseThrow();
        assertThat(facts(row.result().rawMemory())).hasSize(12);
        assertThat(row.result().rolloutSummary()).containsPattern("Covered: rows 1–[0-9,]+ of [0-9,]+ in [0-9]+ parts\\.");
        assertThat(model.largestAnswered()).isLessThanOrEqualTo(WINDOW);
        assertThat(retriesLeft(home)).isEqualTo("3");
    }

    @Test
    void sessionTwentyWindowsLong_keepsEveryPlantedFact_andNoRequestExceedsTheWindow() {
        WindowModel model = new WindowModel(WINDOW, 1.0, true);
        try (Pipeline p = Pipeline.withModel(home, MemoriesConfig.defaults(), model)) {
            String id = longSession(p);
            p.idle();

            Phase1Report report = p.engine.admin().runPhase1("current-thread");

            assertThat(report.succeeded()).isEqualTo(1);
            assertEveryFactKept(p, id, model);
            assertThat(model.overflows()).isZero();
            assertThat(model.requestTokens()).allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(WINDOW * 70 / 100));
            assertThat(model.requestTokens().size()).isGreaterThan(20);
            assertThat(model.inputs().get(0)).contains("part 1 of");
            assertThat(report.usage().inputTokens()).isEqualTo(model.reportedInputTokens());
        }
    }

    @Test
    void tokenizerCountingMoreThanTheEstimate_isMeasuredBeforeSending_withNoFailureOrRetrySpent() {
        WindowModel model = new WindowModel(WINDOW, 1.6, true);
        try (Pipeline p = Pipeline.withModel(home, MemoriesConfig.defaults(), model)) {
            String id = longSession(p);
            p.idle();

            assertThat(p.engine.admin().runPhase1("current-thread").succeeded()).isEqualTo(1);

            assertEveryFactKept(p, id, model);
            assertThat(model.overflows()).as("fitted by measurement, never rejected").isZero();
            assertThat(model.requestTokens()).allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(WINDOW * 70 / 100));
        }
    }

    @Test
    void tokenizerCountingMoreThanItsCounterSays_shrinksOnTheWindowError_withNoFailureOrRetrySpent() {
        for (boolean sizesInMessage : new boolean[] {true, false}) {
            Path at = home.resolve(sizesInMessage ? "sizes" : "no-sizes");
            WindowModel model = new WindowModel(WINDOW, 1.6, false);
            model.errorNamesSizes = sizesInMessage;
            try (Pipeline p = Pipeline.withModel(at, MemoriesConfig.defaults(), model)) {
                String id = longSession(p);
                p.idle();

                Phase1Report report = p.engine.admin().runPhase1("current-thread");

                assertThat(report.succeeded()).as("sizes in message: %s", sizesInMessage).isEqualTo(1);
                assertThat(model.overflows()).as("rejected once, then the job remembers").isBetween(1, 2);
                Stage1Output row = p.store.stage1Output(id).orElseThrow();
                assertThat(facts(row.result().rawMemory())).hasSize(12);
                assertThat(Sql.string(at, "SELECT retry_remaining FROM jobs WHERE kind = 'memory_stage1'"))
                        .isEqualTo("3");
            }
        }
    }

    @Test
    void windowThatRejectsEverySize_failsTheJobForGoodWithAClearMessage() {
        WindowModel model = new WindowModel(10, 1.0, false);
        try (Pipeline p = Pipeline.withModel(home, MemoriesConfig.defaults(), model)) {
            p.recordSession("a short session");
            p.idle();

            assertThat(p.engine.admin().runPhase1("current-thread").failed()).isEqualTo(1);

            assertThat(retriesLeft(home)).isEqualTo("2");
            assertThat(Sql.string(home, "SELECT last_error FROM jobs WHERE kind = 'memory_stage1'"))
                    .contains("does not fit the model's context window");
        }
    }

    /** Turns whose user message holds a fact and whose tool output is large filler: the tool rows go first. */
    private static String sessionWithLargeToolOutputs(Pipeline p) {
        String id = Pipeline.uuidV7(p.clock.instant());
        try (RecordedSession s = p.engine.sessions().start(SessionContext.root(id))) {
            for (int turn = 0; turn < 200; turn++) {
                String fact = turn % 20 == 0 ? String.format(Locale.ROOT, " Remember FACT-%04d.", turn / 20 + 1) : "";
                s.userMessage("turn " + turn + fact);
                s.toolCall("call_" + turn, "shell", "{\"cmd\":\"cat big.log\"}");
                s.toolOutput("call_" + turn, String.format(Locale.ROOT, "TOOL-FILLER-%03d ", turn) + "x".repeat(3_000));
                s.assistantMessage("Done with turn " + turn);
            }
        }
        return id;
    }

    @Test
    void perRolloutCap_leavesOutTheLeastImportantRowsFirst_andTheMemorySaysItWasCut() {
        WindowModel model = new WindowModel(WINDOW, 1.0, true);
        MemoriesConfig config = MemoriesConfig.builder().maxExtractionTokensPerRollout(40_000).build();
        try (Pipeline p = Pipeline.withModel(home, config, model)) {
            String id = sessionWithLargeToolOutputs(p);
            p.idle();

            Phase1Report report = p.engine.admin().runPhase1("current-thread");

            Stage1Output row = p.store.stage1Output(id).orElseThrow();
            assertThat(facts(row.result().rawMemory())).hasSize(10);
            assertThat(row.result().rolloutSummary()).contains("rows left out to stay within"
                    + " max_extraction_tokens_per_rollout");
            long toolOutputsSent = model.inputs().stream()
                    .mapToLong(input -> input.split("TOOL-FILLER", -1).length - 1).sum();
            assertThat(toolOutputsSent).as("tool output rows go first").isLessThan(200);
            String all = String.join("\n", model.inputs());
            assertThat(all).as("the oldest first").doesNotContain("TOOL-FILLER-000").contains("TOOL-FILLER-199");
            assertThat(report.usage().inputTokens()).isLessThanOrEqualTo(40_000);
        }
    }

    @Test
    void capAtOrBelowOneRequest_extractsInExactlyOneRequestAsCodexDoes() {
        WindowModel model = new WindowModel(WINDOW, 1.0, true);
        MemoriesConfig config = MemoriesConfig.builder().maxExtractionTokensPerRollout(WINDOW * 70 / 100).build();
        try (Pipeline p = Pipeline.withModel(home, config, model)) {
            String id = longSession(p);
            p.idle();

            assertThat(p.engine.admin().runPhase1("current-thread").succeeded()).isEqualTo(1);

            assertThat(model.requestTokens()).hasSize(1);
            assertThat(model.inputs().get(0)).doesNotContain("part 1 of").contains("omitted");
            Stage1Output row = p.store.stage1Output(id).orElseThrow();
            assertThat(row.result().rolloutSummary()).doesNotContain("Covered:");
            assertThat(facts(row.result().rawMemory()).size()).isLessThan(12);
        }
    }

    @Test
    void transientFailureInTheMiddlePart_spendsNoRetry_andTheNextRunKeepsEveryFact() {
        WindowModel model = new WindowModel(WINDOW, 1.0, true);
        model.serverErrorAt = n -> n == 10;
        try (Pipeline p = Pipeline.withModel(home, MemoriesConfig.defaults(), model)) {
            String id = longSession(p);
            p.idle();

            Phase1Report failed = p.engine.admin().runPhase1("current-thread");
            assertThat(failed.failed()).isEqualTo(1);
            assertThat(failed.usage().inputTokens()).as("the nine answered parts").isEqualTo(
                    model.reportedInputTokens()).isPositive();
            assertThat(retriesLeft(home)).isEqualTo("3");

            p.clock.advance(Duration.ofMinutes(5));
            long before = model.reportedInputTokens();
            Phase1Report report = p.engine.admin().runPhase1("current-thread");

            assertThat(report.succeeded()).isEqualTo(1);
            assertThat(report.usage().inputTokens()).isEqualTo(model.reportedInputTokens() - before);
            assertEveryFactKept(p, id, model);
        }
    }

    @Test
    void everyPartSayingNothingToKeep_storesNoOutput() {
        WindowModel model = new WindowModel(WINDOW, 1.0, true);
        try (Pipeline p = Pipeline.withModel(home, MemoriesConfig.defaults(), model)) {
            List<String> turns = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                turns.add("nothing to remember here " + "lorem ipsum ".repeat(100));
            }
            String id = p.recordSession(turns.toArray(String[]::new));
            p.idle();

            assertThat(p.engine.admin().runPhase1("current-thread").succeededNoOutput()).isEqualTo(1);
            assertThat(model.requestTokens().size()).isGreaterThan(1);
            assertThat(p.store.stage1Output(id).map(o -> o.result().rawMemory()).orElse("")).isEmpty();
        }
    }
}
