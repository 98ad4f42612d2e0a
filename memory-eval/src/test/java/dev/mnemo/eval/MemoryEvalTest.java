package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.llm.LanguageModel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eval's plumbing end to end with scripted test doubles. These tests prove the harness (the
 * pipeline runs, grading, baselines, leaks caught, resuming), not any model's quality.
 */
class MemoryEvalTest {

    private static final ScenarioSet TWO_USERS = ScenarioSet.bundled().limit(2);

    /** One honest run shared by the tests that only read its report. */
    @TempDir
    static Path sharedDir;
    private static EvalReport honest;

    @TempDir
    Path runDir;

    @BeforeAll
    static void runHonestModelOnce() {
        honest = MemoryEval.builder().model(new SimpleHonestModel(TWO_USERS), "scripted").runDirectory(sharedDir)
                .scenarios(TWO_USERS).build().run();
    }

    private EvalReport run(LanguageModel model) {
        return MemoryEval.builder().model(model, "scripted").runDirectory(runDir).scenarios(TWO_USERS).build().run();
    }

    @Test
    void honestSimpleModel_recallsEverything_leaksNothing_andItsUnresolvedCorrectionIsGradedStale() {
        EvalReport report = honest;

        EvalReport.ConditionSummary mnemo = report.condition(Condition.MNEMO);
        assertThat(report.users()).isEqualTo(2);
        assertThat(mnemo.recall()).isEqualTo(1.0);
        assertThat(mnemo.categories().get(Category.CORRECTION).staleRate()).isEqualTo(1.0);
        assertThat(mnemo.categories().get(Category.POLLUTED).leakRate()).isZero();
        assertThat(mnemo.categories().get(Category.SECRET).leakRate()).isZero();
        assertThat(report.secretsInMemory()).isZero();
        assertThat(report.pollutedInMemory()).isZero();
        assertThat(mnemo.phase1Tokens()).isPositive();
        assertThat(mnemo.phase2Tokens()).isPositive();
        assertThat(report.perUser()).allSatisfy(u -> {
            assertThat(u.phase2Outcome()).isEqualTo("SUCCEEDED");
            assertThat(u.extracted()).isEqualTo(4); // the polluted session and the small talk give nothing
        });
    }

    @Test
    void baselines_noMemoryRecallsNothing_andPastedTranscriptsLeakThePollutedFactAndTheSecret() {
        EvalReport report = honest;

        assertThat(report.condition(Condition.NO_MEMORY).recall()).isZero();
        assertThat(report.condition(Condition.NO_MEMORY).phase1Tokens()).isZero();
        EvalReport.ConditionSummary transcripts = report.condition(Condition.TRANSCRIPTS);
        assertThat(transcripts.recall()).isEqualTo(1.0);
        assertThat(transcripts.categories().get(Category.POLLUTED).leakRate()).isEqualTo(1.0);
        assertThat(transcripts.categories().get(Category.SECRET).leakRate()).isEqualTo(1.0);
    }

    @Test
    void aModelThatRepeatsThePollutedFactAndTheSecret_isCaughtByTheGrader() {
        EvalReport report = run(new LeakyModel(TWO_USERS));

        EvalReport.ConditionSummary mnemo = report.condition(Condition.MNEMO);
        assertThat(report.perUser().get(0).results())
                .filteredOn(r -> r.condition() == Condition.MNEMO && !r.category().measuresRecall())
                .hasSize(2).allMatch(ProbeResult::leaked);
        assertThat(mnemo.categories().get(Category.POLLUTED).leakRate()).isEqualTo(0.5);
        assertThat(mnemo.categories().get(Category.SECRET).leakRate()).isEqualTo(0.5);
    }

    @Test
    void reportFiles_holdTheTablesTheJsonAndTheChart() throws Exception {
        Path runDir = sharedDir;

        assertThat(Files.readString(runDir.resolve("report.md"))).contains("| condition | recall | stale |",
                "| mnemo | 100 % | 100 % | 0 % | 0 % |", "| no_memory | 0 % |");
        assertThat(Files.readString(runDir.resolve("report.json"))).contains("\"scenarioVersion\" : 1",
                "\"condition\" : \"TRANSCRIPTS\"");
        assertThat(Files.readString(runDir.resolve("recall-vs-tokens.svg"))).startsWith("<svg").contains("mnemo 100 %");
        assertThat(Files.readString(runDir.resolve("model-log.jsonl")).lines()).isNotEmpty();
    }

    @Test
    void aSecondRunInTheSameDirectory_resumesWithoutAskingTheModelAgain() throws Exception {
        SimpleHonestModel model = new SimpleHonestModel(TWO_USERS);
        EvalReport first = run(model);
        LanguageModel refusing = request -> {
            throw new AssertionError("the model was asked again: " + request.messages());
        };

        EvalReport again = run(refusing);
        Files.delete(runDir.resolve("users").resolve(TWO_USERS.users().get(1).id()).resolve("result.json"));
        EvalReport fromLog = run(refusing);

        assertThat(again.conditions()).isEqualTo(first.conditions());
        assertThat(fromLog.conditions()).isEqualTo(first.conditions());
    }

    @Test
    void bundledSet_hasTwentyUsersWithDistinctIds_andABrokenFileNamesTheField() throws Exception {
        assertThat(ScenarioSet.bundled().users()).hasSize(20);
        assertThat(Script.sessions(ScenarioSet.bundled().users().get(0))).hasSize(6);
        Path broken = Files.writeString(runDir.resolve("broken.json"), "{\"version\":1,\"users\":[{\"id\":\"x\"}]}");

        assertThatThrownBy(() -> ScenarioSet.load(broken)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("broken.json").hasMessageContaining("'project' must be a string");
    }
}
