package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentRequest;
import dev.mnemo.spi.ConsolidationAgentResult;
import dev.mnemo.testkit.ScriptedLanguageModel;
import dev.mnemo.testkit.TestClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link ConsolidationAgent} must do, run against a temp memory root that holds Phase 2's
 * inputs ({@code raw_memories.md}, {@code rollout_summaries/}): write valid artifacts
 * ({@code MEMORY.md} and a {@code memory_summary.md} whose first line is {@code v1}) and report
 * completion, or report failure with a reason — never throw; stop once the request's timeout has
 * passed; and never create, change or delete a file outside the memory root, whatever the model
 * asks for.
 *
 * <p>An implementation's test extends this class and provides {@link #agent(LanguageModel, TestClock)}:
 * the agent under test, driven by the given model and reading time from the given clock. The suite
 * scripts the model ({@link ScriptedLanguageModel} and small lambdas) in the vocabulary of Mnemo's
 * default agent: function tools named {@code write_file} ({@code path}, {@code content}),
 * {@code delete_file} ({@code path}) and {@code move_file} ({@code from}, {@code to}), with paths
 * relative to the memory root; an agent offering other tools should adapt them in its test.
 */
public abstract class ConsolidationAgentContract {

    /** Where the test clock starts. */
    protected static final Instant START = Instant.parse("2026-06-01T12:00:00Z");
    /** The timeout of every request the suite sends. */
    protected static final Duration TIMEOUT = Duration.ofMinutes(10);
    /** The usage each scripted reply reports. */
    protected static final TokenUsage USAGE = new TokenUsage(100, 10, 20, 5);

    /** A temporary folder of each test, holding the home and {@link #outside}. */
    @TempDir
    protected Path temp;

    /** The memory root of each test: {@code <temp>/home/memories}, holding Phase 2's inputs. */
    protected Path memoryRoot;
    /** A folder beside the home with a file in it, which no run may touch. */
    protected Path outside;
    /** The clock the agent is given. */
    protected TestClock clock;

    /**
     * The agent under test, driven by {@code model} and reading the time from {@code clock}.
     * Called once per test.
     *
     * @param model the scripted model the agent must use
     * @param clock the clock the agent must read
     * @return the agent under test
     */
    protected abstract ConsolidationAgent agent(LanguageModel model, TestClock clock);

    @BeforeEach
    void prepareMemoryRoot() throws IOException {
        clock = new TestClock(START);
        memoryRoot = Files.createDirectories(temp.resolve("home/memories"));
        Files.writeString(memoryRoot.resolve("raw_memories.md"), """
                # Raw Memories

                ## Thread `thread-1`
                - the build runs with `./gradlew build --offline`; the network is blocked
                """);
        Files.createDirectories(memoryRoot.resolve("rollout_summaries"));
        Files.writeString(memoryRoot.resolve("rollout_summaries/thread-1.md"), "thread_id: thread-1\nran the build\n");
        outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("keep.md"), "not yours\n");
    }

    @Test
    void run_withAWorkingModel_writesValidArtifactsAndCompletes() throws IOException {
        ConsolidationAgentResult result = run(ScriptedLanguageModel.builder().usage(USAGE).build());

        assertThat(result.completed()).as("result %s", result).isTrue();
        assertThat(result.error()).isEmpty();
        assertThat(Files.readString(memoryRoot.resolve("MEMORY.md"))).contains("gradlew build --offline");
        assertThat(Files.readAllLines(memoryRoot.resolve("memory_summary.md"))).first().isEqualTo("v1");
        assertThat(filesUnder(outside)).isEqualTo(Map.of("keep.md", "not yours\n"));
    }

    /**
     * Every model turn's tokens, summed. The scripted model takes two turns when the prompt names an
     * absolute memory root (it reads the raw memories from disk, then writes) and three when it does
     * not (Mnemo's default agent: it reads them through {@code read_file} first).
     */
    @Test
    void run_reportsTheTokensTheModelSpent() {
        ScriptedLanguageModel model = ScriptedLanguageModel.builder().usage(USAGE).build();
        ConsolidationAgentResult result = run(model);

        int turns = model.requests().size();
        assertThat(turns).as("model turns").isBetween(2, 3);
        TokenUsage expected = TokenUsage.ZERO;
        for (int i = 0; i < turns; i++) {
            expected = expected.plus(USAGE);
        }
        assertThat(result.usage()).as("%s model turns", turns).isEqualTo(expected);
    }

    @Test
    void run_whenTheModelFails_reportsFailureWithAReasonInsteadOfThrowing() {
        LanguageModel failing = request -> {
            throw new ModelException(ModelException.Reason.SERVER, "scripted outage");
        };

        ConsolidationAgentResult result = run(failing);

        assertThat(result.completed()).isFalse();
        assertThat(result.error()).hasValueSatisfying(error -> assertThat(error).isNotBlank());
    }

    @Test
    void run_whenTheModelNeverStops_endsOnceTheTimeoutHasPassed() {
        int[] turns = {0};
        LanguageModel endless = request -> {
            turns[0]++;
            clock.advance(TIMEOUT.dividedBy(2).plusSeconds(1));
            return ModelResponse.ofToolCalls(List.of(
                    ScriptedLanguageModel.writeFile("w" + turns[0], "notes/turn-" + turns[0] + ".md", "more\n")), USAGE);
        };

        ConsolidationAgentResult result = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> run(endless),
                "the agent kept running although its clock was past the timeout");

        assertThat(result.completed()).isFalse();
        assertThat(result.error()).isPresent();
        assertThat(turns[0]).as("model turns after the deadline passed").isLessThanOrEqualTo(3);
    }

    @Test
    void run_neverWritesDeletesOrMovesFilesOutsideTheRoot() throws IOException {
        Path linked = memoryRoot.resolve("linked");
        boolean symlinks = trySymlink(linked, outside);
        String escape = outside.toString();
        List<ToolCall> attempts = new ArrayList<>(List.of(
                ScriptedLanguageModel.writeFile("a1", "../../outside/planted.md", "planted\n"),
                ScriptedLanguageModel.writeFile("a2", escape + "/absolute.md", "planted\n"),
                new ToolCall("a3", "delete_file", "{\"path\":\"../../outside/keep.md\"}"),
                new ToolCall("a4", "move_file", "{\"from\":\"raw_memories.md\",\"to\":\"../../outside/moved.md\"}"),
                new ToolCall("a5", "move_file", "{\"from\":\"../../outside/keep.md\",\"to\":\"stolen.md\"}")));
        if (symlinks) {
            attempts.add(ScriptedLanguageModel.writeFile("a6", "linked/through-link.md", "planted\n"));
            attempts.add(new ToolCall("a7", "delete_file", "{\"path\":\"linked/keep.md\"}"));
        }
        LanguageModel hostile = request -> ScriptedLanguageModel.afterToolResults(request)
                ? ModelResponse.ofText("done", USAGE)
                : ModelResponse.ofToolCalls(attempts, USAGE);

        ConsolidationAgentResult result = run(hostile);

        assertThat(result).isNotNull();
        assertThat(filesUnder(outside)).isEqualTo(Map.of("keep.md", "not yours\n"));
        assertThat(filesUnder(temp.resolve("home"))).as("nothing lands beside the memory root")
                .allSatisfy((path, content) -> assertThat(path).startsWith("memories/"));
    }

    @Test
    void run_withAMemoryRootThatIsAFile_reportsFailureInsteadOfThrowing() throws IOException {
        Path notAFolder = Files.writeString(temp.resolve("home/not-a-folder"), "x\n");
        ConsolidationAgent agent = agent(ScriptedLanguageModel.builder().usage(USAGE).build(), clock);

        ConsolidationAgentResult[] result = new ConsolidationAgentResult[1];
        assertThatCode(() -> result[0] = agent.run(request(notAFolder))).doesNotThrowAnyException();

        assertThat(result[0].completed()).isFalse();
        assertThat(result[0].error()).isPresent();
        assertThat(Files.readString(notAFolder)).isEqualTo("x\n");
    }

    /**
     * The request every test sends: the suite's prompt, model {@code test-model}, {@link #TIMEOUT}.
     *
     * @param root the memory root the prompt names and the agent works in
     * @return the request
     */
    protected ConsolidationAgentRequest request(Path root) {
        return new ConsolidationAgentRequest(root, """
                Consolidate the raw memories into MEMORY.md and memory_summary.md (first line: v1).
                Memory root: %s
                """.formatted(root), "test-model", TIMEOUT);
    }

    private ConsolidationAgentResult run(LanguageModel model) {
        ConsolidationAgentResult result = agent(model, clock).run(request(memoryRoot));
        assertThat(result).as("the agent's result").isNotNull();
        return result;
    }

    private static boolean trySymlink(Path link, Path target) {
        try {
            Files.createSymbolicLink(link, target);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Every regular file below {@code dir} (links not followed), relative path to content. */
    private static Map<String, String> filesUnder(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).forEach(p -> {
                try {
                    files.put(dir.relativize(p).toString().replace('\\', '/'),
                            new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return files;
    }
}
