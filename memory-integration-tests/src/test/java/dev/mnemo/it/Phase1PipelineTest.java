package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryMode;
import dev.mnemo.Phase1Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.StartupTask;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.Role;
import dev.mnemo.spi.Stage1Output;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Phase 1 and the startup task, end to end over a real SQLite store with recorded sessions. */
class Phase1PipelineTest {

    @TempDir
    Path home;

    @Test
    void idleEnabledRolloutBecomesOneStage1Row() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("set up the build", "fix the flaky test");
            p.idle();

            Phase1Report report = p.engine.admin().runPhase1("current-thread");

            assertThat(report.claimed()).isEqualTo(1);
            assertThat(report.succeeded()).isEqualTo(1);
            assertThat(report.usage()).isEqualTo(ScriptedModel.USAGE);
            Stage1Output row = p.store.stage1Output(id).orElseThrow();
            assertThat(row.result().rawMemory()).isEqualTo("a memory");
            assertThat(row.result().rolloutSlug()).contains("a-slug");
            assertThat(row.sourceUpdatedAt()).isEqualTo(Pipeline.T0);
        }
    }

    @Test
    void request_isStrictLowEffortJsonWithoutDeveloperTextAgentsMdSkillsOrSecrets() {
        try (Pipeline p = new Pipeline(home)) {
            String id = Pipeline.uuidV7(p.clock.instant());
            try (RecordedSession s = p.engine.sessions().start(SessionContext.root(id))) {
                s.developerMessage("DEVELOPER-ONLY-POLICY text");
                s.userMessage("# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nAGENTS-BODY\n</INSTRUCTIONS>");
                s.userMessage("<skill>\nSKILL-BODY\n</skill>");
                s.userMessage("deploy with key sk-abcdefghijklmnopqrstuvwxyz123456 please");
                s.toolCall("call_1", "shell", "{\"cmd\":\"ls\"}");
                s.toolOutput("call_1", "README.md");
                s.assistantMessage("deployed");
            }
            p.idle();
            p.engine.admin().runPhase1("current-thread");

            ModelRequest request = p.model.extractionRequests().get(0);
            assertThat(request.reasoningEffort()).isEqualTo(ReasoningEffort.LOW);
            assertThat(request.outputSchema()).hasValueSatisfying(schema -> {
                assertThat(schema.strict()).isTrue();
                assertThat(schema.jsonSchema()).contains("\"additionalProperties\":false");
            });
            assertThat(request.messages()).extracting(ModelMessage::role).containsExactly(Role.USER);
            String input = ScriptedModel.extractionInput(request);
            assertThat(input).contains("deploy with key", "README.md", "deployed", "[REDACTED_SECRET]")
                    .doesNotContain("DEVELOPER-ONLY-POLICY", "AGENTS-BODY", "SKILL-BODY",
                            "sk-abcdefghijklmnopqrstuvwxyz123456");
            assertThat(request.metadata()).containsEntry("request_kind", "memory");
        }
    }

    @Test
    void extractModelFromConfigDrivesTheRequestModel() {
        MemoriesConfig config = MemoriesConfig.builder().extractModel("small-model").build();
        try (Pipeline p = new Pipeline(home, config, null)) {
            p.recordSession("hello");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            assertThat(p.model.extractionRequests()).extracting(ModelRequest::model).containsExactly("small-model");
        }
    }

    @Test
    void neverExtractsPollutedDisabledTooRecentOrTooOldThreads() {
        try (Pipeline p = new Pipeline(home)) {
            String tooOld = p.recordSession("ancient work");
            p.clock.advance(Duration.ofDays(11));
            String polluted = p.recordSession("browsed the web");
            String disabled = p.recordSession("private work");
            String eligible = p.recordSession("normal work");
            p.engine.threads().markPolluted(polluted);
            p.engine.threads().setMemoryMode(disabled, MemoryMode.DISABLED);
            p.idle();
            String tooRecent = p.recordSession("just now");

            Phase1Report report = p.engine.admin().runPhase1("current-thread");

            assertThat(report.claimed()).isEqualTo(1);
            assertThat(p.store.stage1Output(eligible)).isPresent();
            for (String id : new String[] {tooOld, polluted, disabled, tooRecent}) {
                assertThat(p.store.stage1Output(id)).as(id).isEmpty();
            }
        }
    }

    @Test
    void currentThreadIsNeverClaimed() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("the session that is running now");
            p.idle();
            assertThat(p.engine.admin().runPhase1(id).claimed()).isZero();
        }
    }

    @Test
    void replyThatIsNotJsonIsRetriedOnceWithTheParseError() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("something");
            p.idle();
            int[] calls = {0};
            p.model.extraction = request -> calls[0]++ == 0 ? "Sure! Here is the memory: {"
                    : ScriptedModel.reply("m", "s", null);

            Phase1Report report = p.engine.admin().runPhase1("current-thread");

            assertThat(report.succeeded()).isEqualTo(1);
            ModelRequest retry = p.model.extractionRequests().get(1);
            assertThat(retry.messages()).extracting(ModelMessage::role)
                    .containsExactly(Role.USER, Role.ASSISTANT, Role.USER);
            assertThat(retry.messages().get(2).text()).contains("not valid JSON");
            assertThat(p.store.stage1Output(id).orElseThrow().result().rolloutSlug()).isEmpty();
        }
    }

    @Test
    void malformedReplyEndsAsFailureWithReasonAndAnHoursBackoff() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("something");
            p.idle();
            p.model.extraction = request -> "{\"raw_memory\":\"m\",\"rollout_summary\":\"s\",\"rollout_slug\":null,\"extra\":1}";
            Phase1Report first = p.engine.admin().runPhase1("current-thread");

            assertThat(first.failed()).isEqualTo(1);
            assertThat(p.store.stage1Output(id)).isEmpty();
            assertThat(p.model.extractions()).isEqualTo(2);
            // Within the hour the job is backing off; after it, it is retried.
            p.clock.advance(Duration.ofMinutes(59));
            assertThat(p.engine.admin().runPhase1("current-thread").claimed()).isZero();
            p.clock.advance(Duration.ofMinutes(2));
            p.model.extraction = request -> ScriptedModel.reply("m", "s", null);
            assertThat(p.engine.admin().runPhase1("current-thread").succeeded()).isEqualTo(1);
        }
    }

    @Test
    void failureReasonIsReportedToListenersAndKeptInTheJob() {
        FailureLog failures = new FailureLog();
        try (Pipeline p = new Pipeline(home, MemoriesConfig.defaults(), null, failures)) {
            p.recordSession("something");
            p.idle();
            p.model.extraction = request -> "[]";
            p.engine.admin().runPhase1("current-thread");
            assertThat(failures.errors).singleElement().asString()
                    .contains("invalid model reply").contains("must be a JSON object");
            assertThat(Sql.string(home, "SELECT last_error FROM jobs WHERE kind = 'memory_stage1'"))
                    .isEqualTo(failures.errors.get(0));
        }
    }

    @Test
    void emptyFieldsMeanNothingWorthKeeping() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("what time is it");
            p.idle();
            p.model.extraction = request -> ScriptedModel.reply("", "", "");
            Phase1Report report = p.engine.admin().runPhase1("current-thread");
            assertThat(report.succeededNoOutput()).isEqualTo(1);
            assertThat(p.store.stage1Output(id)).isEmpty();
        }
    }

    @Test
    void secretsInTheModelsReplyAreRedactedBeforeStorage() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("something");
            p.idle();
            p.model.extraction = request -> ScriptedModel.reply("use token=abcdefgh12345 for ci",
                    "key AKIAABCDEFGHIJKLMNOP", null);
            p.engine.admin().runPhase1("current-thread");
            Stage1Output row = p.store.stage1Output(id).orElseThrow();
            assertThat(row.result().rawMemory()).isEqualTo("use token=[REDACTED_SECRET] for ci");
            assertThat(row.result().rolloutSummary()).isEqualTo("key [REDACTED_SECRET]");
        }
    }

    @Test
    void realFixtureRolloutsRenderWithinBudget() throws Exception {
        try (Pipeline p = new Pipeline(home, MemoriesConfig.builder().maxRolloutsPerStartup(10).maxRolloutAgeDays(90)
                .build(), null)) {
            Path fixtures = FixturePaths.full();
            Path sessions = Files.createDirectories(home.resolve("sessions/2025/09/25"));
            try (Stream<Path> files = Files.list(fixtures)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).toList()) {
                    Files.copy(file, sessions.resolve(file.getFileName()));
                }
            }
            p.clock.set(java.time.Instant.parse("2025-10-01T00:00:00Z"));
            p.engine.admin().syncThreads();
            Phase1Report report = p.engine.admin().runPhase1("current-thread");
            assertThat(report.claimed()).isEqualTo(5);
            assertThat(report.succeeded()).isEqualTo(5);
            for (ModelRequest request : p.model.extractionRequests()) {
                long bytes = request.instructions().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                        + ScriptedModel.extractionInput(request).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                assertThat(bytes).isLessThanOrEqualTo(150_000L * 4);
            }
        }
    }

    @Test
    void smallContextWindowKeepsEveryRequestWithinSeventyPercentOfIt_readingTheRolloutInParts() throws Exception {
        try (Pipeline p = new Pipeline(home, MemoriesConfig.builder().maxRolloutAgeDays(90).build(), null)) {
            p.model.contextWindow = java.util.OptionalInt.of(8_000);
            Path sessions = Files.createDirectories(home.resolve("sessions/2025/09/25"));
            Path biggest;
            try (Stream<Path> files = Files.list(FixturePaths.full())) {
                biggest = files.max(java.util.Comparator.comparingLong(f -> f.toFile().length())).orElseThrow();
            }
            assertThat(Files.size(biggest)).isGreaterThan(8_000L * 4);
            Files.copy(biggest, sessions.resolve(biggest.getFileName()));
            p.clock.set(java.time.Instant.parse("2025-10-01T00:00:00Z"));
            p.engine.admin().syncThreads();

            assertThat(p.engine.admin().runPhase1("current-thread").succeeded()).isEqualTo(1);

            assertThat(p.model.extractionRequests()).hasSizeGreaterThan(1);
            for (ModelRequest request : p.model.extractionRequests()) {
                long bytes = request.instructions().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                        + ScriptedModel.extractionInput(request).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                assertThat(bytes).isLessThanOrEqualTo(8_000L * 70 / 100 * 4);
            }
            assertThat(ScriptedModel.extractionInput(p.model.extractionRequests().get(0))).contains("part 1 of");
        }
    }

    @Test
    void startupTaskReturnsAtOnceWhileTheModelIsBlocked() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            p.recordSession("something");
            p.idle();
            CountDownLatch release = new CountDownLatch(1);
            p.model.extraction = request -> {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return ScriptedModel.reply("m", "s", null);
            };
            StartupTask task = p.engine.startStartupTask(SessionContext.root("current-thread"));
            assertThat(task.completion()).isNotDone();
            release.countDown();
            StartupReport report = task.completion().get(30, TimeUnit.SECONDS);
            assertThat(report.skipped()).isEmpty();
            assertThat(report.phase1().succeeded()).isEqualTo(1);
        }
    }

    @Test
    void startupTaskGatesSkipWithTheReasonAndWriteNothing() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            assertThat(p.engine.startStartupTask(new SessionContext("e", "app", true, false, Optional.empty()))
                    .completion().get(10, TimeUnit.SECONDS).skipped()).contains(SkipReason.EPHEMERAL_SESSION);
            assertThat(p.engine.startStartupTask(new SessionContext("s", "app", false, true, Optional.empty()))
                    .completion().get(10, TimeUnit.SECONDS).skipped()).contains(SkipReason.SUB_AGENT_SESSION);
            assertThat(Files.exists(p.memoryRoot().resolve("extensions"))).isFalse();
            assertThat(p.engine.admin().status().lastStartupSkip()).contains(SkipReason.SUB_AGENT_SESSION);
        }
        MemoriesConfig off = MemoriesConfig.builder().generateMemories(false).build();
        try (Pipeline p = new Pipeline(home.resolve("off"), off, null)) {
            assertThat(p.engine.startStartupTask(SessionContext.root("x")).completion().get(10, TimeUnit.SECONDS)
                    .skipped()).contains(SkipReason.GENERATION_DISABLED);
        }
    }

    @Test
    void ephemeralAndSubAgentSessionsNeverBecomeMemory() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            try (RecordedSession s = p.engine.sessions().start(new SessionContext(Pipeline.uuidV7(p.clock.instant()),
                    "app", true, false, Optional.empty()))) {
                s.userMessage("ephemeral work");
            }
            try (RecordedSession s = p.engine.sessions().start(new SessionContext(Pipeline.uuidV7(p.clock.instant()),
                    "app", false, true, Optional.empty()))) {
                s.userMessage("sub-agent work");
            }
            p.idle();
            assertThat(p.engine.admin().runPhase1("current-thread").claimed()).isZero();
            assertThat(p.model.extractions()).isZero();
        }
    }
}
