package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenCounter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark runner on small files written in LoCoMo's and LongMemEval's published formats
 * (no benchmark data), with a TEST DOUBLE for the model: {@link SimpleHonestModel} extracts the
 * lines holding a planted keyword and repeats what memory or the pasted transcripts hold, and the
 * judge double passes an answer that holds the reference (or, for adversarial and abstention
 * questions, one that declines).
 */
class BenchmarkRunTest {

    @TempDir
    Path temp;

    static Path resource(String name) {
        try {
            return Path.of(BenchmarkRunTest.class.getResource("/benchmarks/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The answering double, with a judge double for requests carrying the judge's instructions. */
    static final class BenchmarkDouble implements LanguageModel {
        final SimpleHonestModel honest = new SimpleHonestModel(List.of("lisbon", "violin", "pixel", "tortoise",
                "beagle"));
        final List<ModelRequest> requests = new ArrayList<>();
        boolean failAnswers;
        OptionalInt window = OptionalInt.empty();
        TokenCounter counter = TokenCounter.estimate();

        @Override
        public TokenCounter tokenCounter() {
            return counter;
        }

        @Override
        public synchronized ModelResponse respond(ModelRequest request) {
            requests.add(request);
            if (request.instructions().equals(BenchmarkJudge.INSTRUCTIONS)) {
                return ModelResponse.ofText(judge(request.messages().get(0).text()), SimpleHonestModel.USAGE);
            }
            boolean answering = request.outputSchema().isEmpty()
                    && request.tools().stream().noneMatch(t -> t.name().equals("write_file"));
            if (answering && failAnswers) {
                throw new IllegalStateException("the endpoint is down");
            }
            return honest.respond(request);
        }

        @Override
        public OptionalInt contextWindowTokens() {
            return window;
        }

        private static String judge(String prompt) {
            boolean locomo = prompt.contains("Reply CORRECT or WRONG");
            String answer = field(prompt, "Answer to grade: ").toLowerCase(Locale.ROOT);
            boolean pass;
            if (prompt.contains("Misleading answer: ")) {
                pass = !answer.contains(field(prompt, "Misleading answer: ").toLowerCase(Locale.ROOT));
            } else if (prompt.contains("Why it cannot be answered: ")) {
                pass = answer.contains("don't know");
            } else {
                pass = answer.contains(field(prompt, "Reference answer: ").toLowerCase(Locale.ROOT)
                        .replaceFirst("^(a|the) ", ""));
            }
            return locomo ? (pass ? "CORRECT" : "WRONG") : (pass ? "yes" : "no");
        }

        private static String field(String prompt, String label) {
            int at = prompt.indexOf(label) + label.length();
            int end = label.startsWith("Answer to grade") ? prompt.length() : prompt.indexOf('\n', at);
            return prompt.substring(at, end).strip();
        }

        long count(java.util.function.Predicate<ModelRequest> kind) {
            return requests.stream().filter(kind).count();
        }
    }

    static boolean extraction(ModelRequest r) {
        return r.outputSchema().isPresent();
    }

    static boolean consolidation(ModelRequest r) {
        return r.tools().stream().anyMatch(t -> t.name().equals("write_file"));
    }

    static boolean judging(ModelRequest r) {
        return r.instructions().equals(BenchmarkJudge.INSTRUCTIONS);
    }

    private BenchmarkRun.Builder run(Benchmark benchmark, String file, LanguageModel model, String name, Path dir) {
        return BenchmarkRun.builder().dataset(benchmark, resource(file)).model(model, name).runDirectory(dir);
    }

    @Test
    void locomoReader_readsSpeakersDatesCaptionsAndTheAdversarialAnswer() {
        BenchmarkSet set = Benchmark.LOCOMO.read(resource("locomo-sample.json"));

        assertThat(set.conversations()).extracting(BenchmarkSet.Conversation::id).containsExactly("conv-a", "conv-b");
        BenchmarkSet.Conversation a = set.conversations().get(0);
        assertThat(a.sessions()).extracting(BenchmarkSet.Session::start).containsExactly(
                Instant.parse("2023-05-08T13:56:00Z"), Instant.parse("2023-05-20T10:05:00Z"));
        assertThat(a.sessions().get(0).turns()).extracting(BenchmarkSet.Turn::user).containsExactly(true, false);
        assertThat(a.sessions().get(0).turns().get(1).text()).isEqualTo("Ben: Congratulations! I started learning the"
                + " violin. [shares a picture: a photo of a violin on a chair]");
        assertThat(a.questions()).extracting(BenchmarkSet.Question::category).containsExactly("4", "1", "5");
        BenchmarkSet.Question adversarial = a.questions().get(2);
        assertThat(adversarial.special()).isTrue();
        assertThat(adversarial.answer()).isEqualTo("Pixel");
        assertThat(a.askedAt()).isAfter(a.sessions().get(1).end());
        assertThat(set.fingerprint()).startsWith("sha256:");
    }

    @Test
    void longMemEvalReader_readsTheHaystackInDateOrderTheQuestionDateAndAbstention() {
        BenchmarkSet set = Benchmark.LONGMEMEVAL.read(resource("longmemeval-sample.json"));

        assertThat(set.conversations()).hasSize(2);
        BenchmarkSet.Conversation dog = set.conversations().get(0);
        assertThat(dog.sessions()).extracting(BenchmarkSet.Session::id).containsExactly("s-old", "s-dog");
        assertThat(dog.sessions().get(1).start()).isEqualTo(Instant.parse("2023-05-20T02:21:00Z"));
        assertThat(dog.sessions().get(1).turns().get(0)).isEqualTo(new BenchmarkSet.Turn(true,
                "My dog is a beagle breed named Rex."));
        assertThat(dog.askedAt()).isEqualTo(Instant.parse("2023-05-30T10:00:00Z"));
        assertThat(dog.questions()).singleElement().satisfies(q -> {
            assertThat(q.category()).isEqualTo("single-session-user");
            assertThat(q.special()).isFalse();
        });
        assertThat(set.conversations().get(1).questions().get(0).special()).isTrue();
    }

    @Test
    void reader_ofTheOtherBenchmarksFile_namesTheMissingField() {
        assertThatThrownBy(() -> Benchmark.LOCOMO.read(resource("longmemeval-sample.json")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sample_id");
        assertThatThrownBy(() -> Benchmark.LONGMEMEVAL.read(resource("locomo-sample.json")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("question_id");
    }

    @Test
    void locomoRun_gradesEachConditionAndReportsTheAdversarialCategoryApart() throws Exception {
        BenchmarkDouble model = new BenchmarkDouble();

        BenchmarkReport report = run(Benchmark.LOCOMO, "locomo-sample.json", model, "double", temp).build().run();

        assertThat(report.conversations()).isEqualTo(2);
        assertThat(report.questions()).isEqualTo(4);
        BenchmarkReport.ConditionFigures mnemo = report.condition("mnemo");
        assertThat(mnemo.questions()).isEqualTo(3);
        assertThat(mnemo.correct()).isEqualTo(3);
        assertThat(mnemo.categories().get("4")).isEqualTo(BenchmarkReport.CategoryFigures.of(2, 2));
        assertThat(mnemo.special()).isEqualTo(BenchmarkReport.CategoryFigures.of(1, 0));
        BenchmarkReport.ConditionFigures none = report.condition("no_memory");
        assertThat(none.correct()).isZero();
        assertThat(none.special()).isEqualTo(BenchmarkReport.CategoryFigures.of(1, 1));
        assertThat(report.condition("full_context").correct()).isEqualTo(3);
        assertThat(mnemo.tokensPerQuestion()).isGreaterThan(0);
        assertThat(report.pipelineTokens()).isGreaterThan(0);
        assertThat(model.count(BenchmarkRunTest::extraction)).isEqualTo(3);
        assertThat(model.count(BenchmarkRunTest::judging)).isEqualTo(12);
        assertThat(Files.readString(temp.resolve("benchmark-report.md"))).contains("# Mnemo on LoCoMo: double",
                "adversarial (5)", "4 single-hop", "| mnemo | 100.0 % (3/3) | 0.0 % (0/1)");
        assertThat(temp.resolve("benchmark-report.json")).exists();
    }

    @Test
    void longMemEvalRun_passesTheAbstentionThatDeclines_andCountsItInTheAccuracy() {
        BenchmarkReport report = run(Benchmark.LONGMEMEVAL, "longmemeval-sample.json", new BenchmarkDouble(), "double",
                temp).build().run();

        BenchmarkReport.ConditionFigures mnemo = report.condition("mnemo");
        assertThat(mnemo.questions()).isEqualTo(2);
        assertThat(mnemo.correct()).isEqualTo(2);
        assertThat(mnemo.special()).isEqualTo(BenchmarkReport.CategoryFigures.of(1, 1));
        assertThat(report.condition("no_memory").correct()).isEqualTo(1);
    }

    @Test
    void resume_afterTheAnswerStageFailed_redoesNoEarlierStage() throws Exception {
        BenchmarkDouble first = new BenchmarkDouble();
        first.failAnswers = true;
        assertThatThrownBy(() -> run(Benchmark.LOCOMO, "locomo-sample.json", first, "double", temp).limit(1).build()
                .run()).hasMessageContaining("the endpoint is down");
        assertThat(first.count(BenchmarkRunTest::extraction)).isEqualTo(2);
        Path conversation = temp.resolve("benchmark/conv-a");
        assertThat(Stream.of("ingest", "extract", "consolidate").map(s -> conversation.resolve(s + ".json")))
                .allMatch(Files::exists);
        assertThat(conversation.resolve("answer.json")).doesNotExist();
        // Without the model log, only the checkpoints can keep the second run from asking again.
        Files.delete(temp.resolve(RecordingModel.LOG_FILE));

        BenchmarkDouble second = new BenchmarkDouble();
        BenchmarkReport report = run(Benchmark.LOCOMO, "locomo-sample.json", second, "double", temp).limit(1).build()
                .run();

        assertThat(second.count(BenchmarkRunTest::extraction)).isZero();
        assertThat(second.count(BenchmarkRunTest::consolidation)).isZero();
        assertThat(second.count(BenchmarkRunTest::judging)).isEqualTo(9);
        assertThat(report.condition("mnemo").correct()).isEqualTo(2);

        BenchmarkDouble third = new BenchmarkDouble();
        run(Benchmark.LOCOMO, "locomo-sample.json", third, "double", temp).limit(1).build().run();
        assertThat(third.requests).isEmpty();
    }

    @Test
    void run_ofAnotherModelOrJudgeOrFileInTheSameDirectory_isRefused() {
        run(Benchmark.LONGMEMEVAL, "longmemeval-sample.json", new BenchmarkDouble(), "double", temp).limit(1).build()
                .run();

        assertThatThrownBy(() -> run(Benchmark.LONGMEMEVAL, "longmemeval-sample.json", new BenchmarkDouble(), "other",
                temp).limit(1).build().run()).isInstanceOf(EvalRunMismatchException.class)
                .hasMessageContaining("another model").hasMessageContaining("'double'");
        assertThatThrownBy(() -> run(Benchmark.LONGMEMEVAL, "longmemeval-sample.json", new BenchmarkDouble(), "double",
                temp).judgeModel("big-judge").limit(1).build().run()).isInstanceOf(EvalRunMismatchException.class)
                .hasMessageContaining("judge_model=big-judge");
        assertThatThrownBy(() -> run(Benchmark.LOCOMO, "locomo-sample.json", new BenchmarkDouble(), "double", temp)
                .limit(1).build().run()).isInstanceOf(EvalRunMismatchException.class)
                .hasMessageContaining("another benchmark file").hasMessageContaining("locomo file sha256:");
        BenchmarkDouble fresh = new BenchmarkDouble();
        run(Benchmark.LOCOMO, "locomo-sample.json", fresh, "double", temp).limit(1).fresh(true).build().run();
        assertThat(fresh.count(BenchmarkRunTest::extraction)).isEqualTo(2);
    }

    @Test
    void limit_runsOnlyTheFirstConversations_andQuestionLimitTheirFirstQuestions() throws Exception {
        BenchmarkReport report = run(Benchmark.LOCOMO, "locomo-sample.json", new BenchmarkDouble(), "double", temp)
                .limit(1).questionLimit(2).build().run();

        assertThat(report.conversations()).isEqualTo(1);
        assertThat(report.questions()).isEqualTo(2);
        try (Stream<Path> folders = Files.list(temp.resolve("benchmark"))) {
            assertThat(folders.map(p -> p.getFileName().toString())).containsExactly("conv-a");
        }
    }

    @Test
    void fullContext_thatDoesNotFitTheWindow_keepsTheNewestSessionsWithANote() {
        BenchmarkDouble model = new BenchmarkDouble();
        model.window = OptionalInt.of(BenchmarkConversation.WINDOW_RESERVE + 30);

        BenchmarkReport report = run(Benchmark.LOCOMO, "locomo-sample.json", model, "double", temp).limit(1).build()
                .run();

        assertThat(report.condition("full_context").contextCut()).isEqualTo(3);
        assertThat(report.condition("mnemo").contextCut()).isZero();
        assertThat(model.requests).anyMatch(r -> r.instructions().contains("does not fit the model's window")
                && r.instructions().contains("Pixel") && !r.instructions().contains("Lisbon"));
    }

    /** Text far denser than four bytes a token (here a token a character) still fits the window by the model's count. */
    @Test
    void fullContext_ofDenseText_fitsTheWindowByTheModelsOwnTokenCounter() {
        BenchmarkDouble model = new BenchmarkDouble();
        model.window = OptionalInt.of(BenchmarkConversation.WINDOW_RESERVE + 30);
        model.counter = String::length;

        BenchmarkReport report = run(Benchmark.LOCOMO, "locomo-sample.json", model, "double", temp).limit(1).build()
                .run();

        List<String> transcripts = model.requests.stream().map(ModelRequest::instructions)
                .filter(i -> i.contains("TRANSCRIPTS BEGIN")).map(BenchmarkRunTest::transcripts).toList();
        assertThat(transcripts).hasSize(report.condition("full_context").contextCut())
                .allSatisfy(t -> assertThat(t).hasSizeBetween(1, 30));
    }

    @Test
    void endWithin_neverKeepsHalfOfASurrogatePair() {
        assertThat(BenchmarkConversation.endWithin("a\uD83D\uDE00", 1, String::length)).isEmpty();
        assertThat(BenchmarkConversation.endWithin("ab\uD83D\uDE00", 2, String::length)).isEqualTo("\uD83D\uDE00");
        assertThat(BenchmarkConversation.endWithin("abcdef", 10, String::length)).isEqualTo("abcdef");
    }

    /** What the full-context condition put between the transcript markers, less the note that some was left out. */
    private static String transcripts(String instructions) {
        String begin = "TRANSCRIPTS BEGIN =========\n";
        String between = instructions.substring(instructions.indexOf(begin) + begin.length(),
                instructions.indexOf("========= TRANSCRIPTS END"));
        return between.startsWith("[Note:") ? between.substring(between.indexOf("]\n") + 2) : between;
    }

    /** A question or an answer under test that looks like a template's placeholder is graded as written. */
    @Test
    void judgePrompts_keepQuestionsAndAnswersThatLookLikePlaceholders_asWritten() {
        BenchmarkSet.Question q = new BenchmarkSet.Question("q", "What is {{ answer }}?", "{{ question }}",
                "multi-session", false);

        for (Benchmark benchmark : Benchmark.values()) {
            String prompt = BenchmarkJudge.prompt(benchmark, q, "{{ reference }}");

            assertThat(prompt).contains("Question: What is {{ answer }}?\n")
                    .contains("Reference answer: {{ question }}\n").endsWith("Answer to grade: {{ reference }}");
        }
    }

    @Test
    void judgePrompts_followEachQuestionTypesRule() {
        BenchmarkSet.Question temporal = new BenchmarkSet.Question("t", "How many days?", "3", "temporal-reasoning",
                false);
        BenchmarkSet.Question update = new BenchmarkSet.Question("k", "Where?", "Rome", "knowledge-update", false);
        BenchmarkSet.Question preference = new BenchmarkSet.Question("p", "Suggest", "uses their love of jazz",
                "single-session-preference", false);
        BenchmarkSet.Question abstention = new BenchmarkSet.Question("a_abs", "Which?", "never said",
                "multi-session", true);

        assertThat(BenchmarkJudge.prompt(Benchmark.LONGMEMEVAL, temporal, "x")).contains("off by one");
        assertThat(BenchmarkJudge.prompt(Benchmark.LONGMEMEVAL, update, "x")).contains("newest value");
        assertThat(BenchmarkJudge.prompt(Benchmark.LONGMEMEVAL, preference, "x")).contains("rubric");
        assertThat(BenchmarkJudge.prompt(Benchmark.LONGMEMEVAL, abstention, "x")).contains("declines");
        assertThat(BenchmarkJudge.passes(Benchmark.LONGMEMEVAL, "Yes.")).isTrue();
        assertThat(BenchmarkJudge.passes(Benchmark.LONGMEMEVAL, "no")).isFalse();
        assertThat(BenchmarkJudge.passes(Benchmark.LOCOMO, "**CORRECT**")).isTrue();
        assertThat(BenchmarkJudge.passes(Benchmark.LOCOMO, "WRONG, it names another city")).isFalse();
        assertThat(BenchmarkRun.p95(List.of(5L, 1L, 9L, 3L))).isEqualTo(9L);
    }
}
