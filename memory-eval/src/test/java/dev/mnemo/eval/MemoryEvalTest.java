package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.ProjectKeys;
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
 * pipeline runs, grading, baselines, leaks caught, contamination across projects, resuming), not
 * any model's quality.
 */
class MemoryEvalTest {

    private static final ScenarioSet TWO_USERS = ScenarioSet.bundled().limit(2);
    private static final ScenarioSet ONE_USER = ScenarioSet.bundled().limit(1);
    /** The bundled set's fingerprint before format version 2 added the cross-project scenarios. */
    private static final String BUNDLED_V1_FINGERPRINT =
            "sha256:733ee8ad1be3764029d053b65f7c5e37bf8c7dc34cbf07d3d225a4bcbefe01a3";
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
    void crossProject_theScopedPathAnswersEachProjectWithItsOwnFacts_whereTheGlobalOnlyPathContaminates() {
        EvalReport.CrossProject cross = honest.crossProject();

        EvalReport.ReadPathSummary scoped = cross.readPath(ReadPath.SCOPED);
        EvalReport.ReadPathSummary global = cross.readPath(ReadPath.GLOBAL_ONLY);
        assertThat(cross.scenarios()).isEqualTo(2);
        assertThat(scoped.probes()).isEqualTo(12); // 2 scenarios x 2 projects x (2 facts + the shared preference)
        assertThat(scoped.conflictingProbes()).isEqualTo(8);
        assertThat(scoped.contaminated()).isZero();
        assertThat(scoped.contaminationRate()).isZero();
        assertThat(scoped.recall()).isEqualTo(1.0);
        assertThat(global.conflictingProbes()).isEqualTo(8);
        assertThat(global.contaminated()).isEqualTo(8);
        assertThat(global.contaminationRate()).isEqualTo(1.0);
        assertThat(global.recall()).isEqualTo(1.0);
        assertThat(cross.perScenario()).allSatisfy(o -> assertThat(o.paths().values())
                .allSatisfy(run -> assertThat(run.phase2Outcome()).isEqualTo("SUCCEEDED")));
        ProjectProbeResult billing = cross.perScenario().get(0).results().stream()
                .filter(r -> r.readPath() == ReadPath.GLOBAL_ONLY && r.project().equals("billing")
                        && r.probeId().endsWith("package-manager")).findFirst().orElseThrow();
        assertThat(billing.foreignFacts()).containsExactly("pnpm");
    }

    @Test
    void crossProject_scopedPhase2_filesEachProjectsFactsInItsOwnFolder_andTheSharedPreferenceGlobally()
            throws Exception {
        CrossProjectScenario scenario = TWO_USERS.crossProject().get(0);
        Path memories = sharedDir.resolve("users").resolve(scenario.id()).resolve("scoped/home/memories");
        CrossProjectScenario.Project storefront = scenario.projects().get(0);
        CrossProjectScenario.Project billing = scenario.projects().get(1);

        String billingSummary = Files.readString(memories.resolve("projects").resolve(ProjectKeys.slug(billing.key()))
                .resolve("memory_summary.md"));
        String storefrontSummary = Files.readString(memories.resolve("projects")
                .resolve(ProjectKeys.slug(storefront.key())).resolve("memory_summary.md"));
        String globalSummary = Files.readString(memories.resolve("memory_summary.md"));

        assertThat(Grader.contains(billingSummary, "npm")).isTrue();
        assertThat(Grader.contains(billingSummary, "pnpm")).isFalse();
        assertThat(Grader.contains(storefrontSummary, "pnpm")).isTrue();
        assertThat(Grader.contains(storefrontSummary, "npm")).isFalse();
        assertThat(globalSummary).contains(scenario.shared().keyword()).doesNotContain("pnpm", "Java 17", "Java 21");
        assertThat(billingSummary).doesNotContain(scenario.shared().keyword());
    }

    @Test
    void reportFiles_holdTheTablesTheJsonAndTheChart() throws Exception {
        Path runDir = sharedDir;

        assertThat(Files.readString(runDir.resolve("report.md"))).contains("| condition | recall | stale |",
                "| mnemo | 100 % | 100 % | 0 % | 0 % |", "| no_memory | 0 % |");
        assertThat(Files.readString(runDir.resolve("report.json"))).contains("\"scenarioVersion\" : 2",
                "\"condition\" : \"TRANSCRIPTS\"");
        assertThat(Files.readString(runDir.resolve("recall-vs-tokens.svg"))).startsWith("<svg").contains("mnemo 100 %");
        assertThat(Files.readString(runDir.resolve("model-log.jsonl")).lines()).isNotEmpty();
    }

    @Test
    void reportFiles_showTheContaminationOfBothReadPathsSideBySide() throws Exception {
        String markdown = Files.readString(sharedDir.resolve("report.md"));

        assertThat(markdown).contains("## Cross-project contamination", "**contaminated**",
                "| read path | probes | recall | contaminated |",
                "| scoped | 12 | 100 % | 0 % (0 of 8) |", "| global_only | 12 | 100 % | 100 % (8 of 8) |");
        assertThat(Files.readString(sharedDir.resolve("report.json"))).contains("\"readPath\" : \"SCOPED\"",
                "\"readPath\" : \"GLOBAL_ONLY\"", "\"contaminationRate\" : 0.0", "\"contaminationRate\" : 1.0",
                "\"foreignFacts\" : [ \"pnpm\" ]");
    }

    @Test
    void aSecondRunInTheSameDirectory_resumesWithoutAskingTheModelAgain() throws Exception {
        SimpleHonestModel model = new SimpleHonestModel(TWO_USERS);
        EvalReport first = run(model);

        EvalReport again = run(NEVER_ASKED);
        Files.delete(runDir.resolve("users").resolve(TWO_USERS.users().get(1).id()).resolve("result.json"));
        Files.delete(runDir.resolve("users").resolve(TWO_USERS.crossProject().get(1).id()).resolve("result.json"));
        EvalReport fromLog = run(NEVER_ASKED);

        assertThat(again.conditions()).isEqualTo(first.conditions());
        assertThat(fromLog.conditions()).isEqualTo(first.conditions());
        assertThat(again.crossProject().readPaths()).isEqualTo(first.crossProject().readPaths());
        assertThat(fromLog.crossProject().readPaths()).isEqualTo(first.crossProject().readPaths());
    }

    @Test
    void aRunOfTheVersion1Set_isRefusedByTheVersion2Set_notMixedIntoIt() throws Exception {
        ScenarioSet v1 = ScenarioSet.load(Files.writeString(runDir.resolve("v1.json"), version1Json())).limit(1);
        EvalReport earlier = MemoryEval.builder().model(new SimpleHonestModel(v1), "scripted").runDirectory(runDir)
                .scenarios(v1).build().run();

        assertThat(earlier.crossProject().scenarios()).isZero();
        assertThat(Files.readString(runDir.resolve("report.md"))).doesNotContain("Cross-project");
        assertThatThrownBy(() -> MemoryEval.builder().model(NEVER_ASKED, "scripted").runDirectory(runDir)
                .scenarios(ONE_USER).build().run())
                .isInstanceOf(EvalRunMismatchException.class)
                .hasMessageContaining("holds a run of another scenario set:")
                .hasMessageContaining("scenario set v1 " + BUNDLED_V1_FINGERPRINT)
                .hasMessageContaining("scenario set v2 " + ONE_USER.fingerprint());
    }

    @Test
    void aVersion1File_stillLoads_withoutCrossProjectScenarios_andKeepsTheFingerprintItHadBeforeVersion2()
            throws Exception {
        ScenarioSet v1 = ScenarioSet.load(Files.writeString(runDir.resolve("v1.json"), version1Json()));

        assertThat(v1.version()).isEqualTo(1);
        assertThat(v1.users()).isEqualTo(ScenarioSet.bundled().users());
        assertThat(v1.crossProject()).isEmpty();
        assertThat(v1.fingerprint()).isEqualTo(BUNDLED_V1_FINGERPRINT)
                .isNotEqualTo(ScenarioSet.bundled().fingerprint());
    }

    /** The bundled set as version 1 wrote it: the same users, no cross-project scenarios. */
    private static String version1Json() throws Exception {
        ObjectNode json = (ObjectNode) new ObjectMapper().readTree(bundledJson());
        json.put("version", 1).remove("cross_project");
        return json.toString();
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
        try (InputStream in = ScenarioSet.class.getResourceAsStream("scenarios-v2.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void limit_keepsTheFirstUsersAndCrossProjectScenarios_andTheFingerprintOfTheWholeSet() {
        ScenarioSet bundled = ScenarioSet.bundled();

        assertThat(ONE_USER.users()).containsExactly(bundled.users().get(0));
        assertThat(ONE_USER.crossProject()).containsExactly(bundled.crossProject().get(0));
        assertThat(ONE_USER.fingerprint()).isEqualTo(bundled.fingerprint());
    }

    @Test
    void crossProjectScenarios_whoseValuesDoNotConflict_orInAVersion1File_areRefusedNamingTheProblem()
            throws Exception {
        String json = bundledJson();
        Path notConflicting = Files.writeString(runDir.resolve("same.json"),
                json.replace("\"value\": \"Java 21\"", "\"value\": \"Java 17\""));
        Path wrongVersion = Files.writeString(runDir.resolve("v1-with-section.json"),
                json.replaceFirst("\"version\": 2", "\"version\": 1"));
        Path userIdReused = Files.writeString(runDir.resolve("reused.json"),
                json.replace("\"x01-storefront-billing\"", "\"u01-orion\""));

        assertThatThrownBy(() -> ScenarioSet.load(notConflicting)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("same.json").hasMessageContaining("x01-storefront-billing")
                .hasMessageContaining("the values must conflict");
        assertThatThrownBy(() -> ScenarioSet.load(wrongVersion)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'cross_project' needs 'version' 2");
        assertThatThrownBy(() -> ScenarioSet.load(userIdReused)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("id 'u01-orion' appears twice");
    }

    @Test
    void bundledSet_hasTwentyUsersWithDistinctIds_andABrokenFileNamesTheField() throws Exception {
        assertThat(ScenarioSet.bundled().users()).hasSize(20);
        assertThat(ScenarioSet.bundled().crossProject()).hasSize(3);
        assertThat(Script.sessions(ScenarioSet.bundled().users().get(0))).hasSize(6);
        Path broken = Files.writeString(runDir.resolve("broken.json"), "{\"version\":1,\"users\":[{\"id\":\"x\"}]}");

        assertThatThrownBy(() -> ScenarioSet.load(broken)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("broken.json").hasMessageContaining("'project' must be a string");
    }
}
