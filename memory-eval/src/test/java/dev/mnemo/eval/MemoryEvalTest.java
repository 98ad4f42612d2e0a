package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.llm.LanguageModel;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eval's plumbing end to end with scripted test doubles. These tests prove the harness (the
 * pipeline runs, grading, baselines, leaks caught, resuming), not any model's quality.
 */
class MemoryEvalTest {

    private static final ScenarioSet TWO_USERS = ScenarioSet.bundled().limit(2);
    private static final ScenarioSet ONE_USER = ScenarioSet.bundled().limit(1);
    /** A model that fails the test when asked anything: proof that a run reused nothing or stopped first. */
    private static final LanguageModel NEVER_ASKED = request -> {
        throw new AssertionError("the model was asked: " + request.messages());
    };

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

        EvalReport again = run(NEVER_ASKED);
        Files.delete(runDir.resolve("users").resolve(TWO_USERS.users().get(1).id()).resolve("result.json"));
        EvalReport fromLog = run(NEVER_ASKED);

        assertThat(again.conditions()).isEqualTo(first.conditions());
        assertThat(fromLog.conditions()).isEqualTo(first.conditions());
    }

    private EvalReport runOneUser(LanguageModel model, String name, Map<String, String> settings, boolean fresh) {
        return MemoryEval.builder().model(model, name).modelSettings(settings).runDirectory(runDir).scenarios(ONE_USER)
                .fresh(fresh).build().run();
    }

    @Test
    void aRunOfAnotherModelInTheSameDirectory_isRefusedNamingBothModels_beforeAskingAnything() throws Exception {
        runOneUser(new SimpleHonestModel(ONE_USER), "model-a", Map.of(), false);
        String reportBefore = Files.readString(runDir.resolve("report.md"));

        assertThatThrownBy(() -> runOneUser(NEVER_ASKED, "model-b", Map.of(), false))
                .isInstanceOf(EvalRunMismatchException.class)
                .hasMessageContaining("holds a run of another model:")
                .hasMessageContaining("model 'model-a'").hasMessageContaining("model 'model-b'")
                .hasMessageContaining(ONE_USER.fingerprint())
                .hasMessageContaining("fresh(true)");
        assertThat(Files.readString(runDir.resolve("report.md"))).isEqualTo(reportBefore).contains("model-a");
    }

    @Test
    void theSameModelNameWithOtherSettings_isRefusedNamingBothSettings() {
        runOneUser(new SimpleHonestModel(ONE_USER), "llama3.1", Map.of("base_url", "http://host-a:11434/v1"), false);

        assertThatThrownBy(() -> runOneUser(NEVER_ASKED, "llama3.1", Map.of("base_url", "http://host-b:11434/v1"),
                false))
                .isInstanceOf(EvalRunMismatchException.class)
                .hasMessageContaining("model 'llama3.1' (base_url=http://host-a:11434/v1)")
                .hasMessageContaining("model 'llama3.1' (base_url=http://host-b:11434/v1)");
    }

    @Test
    void anEditedScenario_isRefused_whileALargerLimitOfTheSameSetResumes() throws Exception {
        MemoryEval.builder().model(new SimpleHonestModel(TWO_USERS), "scripted").runDirectory(runDir)
                .scenarios(TWO_USERS).limit(1).build().run();
        ScenarioSet edited = ScenarioSet.load(Files.writeString(runDir.resolve("edited.json"),
                bundledJson().replace("postgres 16", "postgres 17"))).limit(2);

        assertThatThrownBy(() -> MemoryEval.builder().model(NEVER_ASKED, "scripted").runDirectory(runDir)
                .scenarios(edited).build().run())
                .isInstanceOf(EvalRunMismatchException.class)
                .hasMessageContaining("holds a run of another scenario set:")
                .hasMessageContaining(TWO_USERS.fingerprint()).hasMessageContaining(edited.fingerprint());
        EvalReport grown = MemoryEval.builder().model(new SimpleHonestModel(TWO_USERS), "scripted").runDirectory(runDir)
                .scenarios(TWO_USERS).build().run();
        assertThat(grown.users()).isEqualTo(2);
    }

    @Test
    void aRunDirectoryFromBeforeRunRecords_isRefused_notTrusted() throws Exception {
        runOneUser(new SimpleHonestModel(ONE_USER), "model-a", Map.of(), false);
        Files.delete(runDir.resolve("run.json"));

        assertThatThrownBy(() -> runOneUser(NEVER_ASKED, "model-a", Map.of(), false))
                .isInstanceOf(EvalRunMismatchException.class)
                .hasMessageContaining("recorded neither its model nor its scenario set")
                .hasMessageContaining("model 'model-a'");
    }

    @Test
    void anUnreadableRunRecord_isRefused_andFreshReplacesIt() throws Exception {
        Files.writeString(runDir.resolve("run.json"), "{\"format\": 1, \"mod");

        assertThatThrownBy(() -> runOneUser(NEVER_ASKED, "model-a", Map.of(), false))
                .isInstanceOf(EvalRunMismatchException.class)
                .hasMessageContaining("run.json cannot be read").hasMessageContaining("fresh(true)");
        runOneUser(new SimpleHonestModel(ONE_USER), "model-a", Map.of(), true);
        assertThat(Files.readString(runDir.resolve("run.json"))).contains("\"model-a\"");
    }

    @Test
    void fresh_discardsTheEarlierRunOnly_andAsksTheNewModelAgain() throws Exception {
        runOneUser(new SimpleHonestModel(ONE_USER), "model-a", Map.of(), false);
        Files.writeString(runDir.resolve("notes.txt"), "mine");
        SimpleHonestModel second = new SimpleHonestModel(ONE_USER);

        EvalReport report = runOneUser(second, "model-b", Map.of(), true);

        assertThat(second.calls).hasPositiveValue();
        assertThat(report.model()).isEqualTo("model-b");
        assertThat(Files.readString(runDir.resolve("run.json"))).contains("\"model-b\"").doesNotContain("model-a");
        assertThat(Files.readString(runDir.resolve("notes.txt"))).isEqualTo("mine");
        assertThat(runOneUser(NEVER_ASKED, "model-b", Map.of(), false).conditions()).isEqualTo(report.conditions());
    }

    @Test
    void fingerprint_followsTheContent_notTheFileLayout_andSurvivesALimit() throws Exception {
        String json = bundledJson();
        ScenarioSet reformatted = ScenarioSet.load(Files.writeString(runDir.resolve("one-line.json"),
                json.replaceAll("\\n\\s*", "")));
        ScenarioSet edited = ScenarioSet.load(Files.writeString(runDir.resolve("edited.json"),
                json.replace("imperative mood", "imperative voice")));

        assertThat(ScenarioSet.bundled().fingerprint()).matches("sha256:[0-9a-f]{64}")
                .isEqualTo(reformatted.fingerprint()).isEqualTo(TWO_USERS.fingerprint())
                .isNotEqualTo(edited.fingerprint());
    }

    private static String bundledJson() throws Exception {
        try (InputStream in = ScenarioSet.class.getResourceAsStream("scenarios-v1.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
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
