package dev.mnemo.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemorySession;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.TokenUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One conversation of a {@link BenchmarkRun}, stage by stage: its sessions recorded in a fresh home
 * (ingest), Phase 1 after each session goes idle (extract), Phase 2 once (consolidate), every
 * question in each of {@link BenchmarkRun#CONDITIONS} (answer), and the judge's verdicts (judge).
 * Each stage writes its checkpoint ({@code <stage>.json}) into the conversation's folder, and a
 * stage whose checkpoint exists is not run again.
 */
final class BenchmarkConversation {

    /** Tokens of the window kept for the instructions, the question and the answer in the full-context baseline. */
    static final int WINDOW_RESERVE = 4_000;
    /** Each conversation's home: every session young enough to extract, every memory kept for the year. */
    private static final MemoriesConfig CONFIG = MemoriesConfig.builder().maxRolloutsPerStartup(128)
            .maxRolloutAgeDays(90).maxUnusedDays(365).build();
    private static final Logger LOG = LoggerFactory.getLogger(BenchmarkConversation.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The answering model's instructions in every condition; memory or transcripts are appended. */
    private static final String ANSWER_INSTRUCTIONS = EvalPrompts.load("benchmark_answer_system.md");
    /** The full-context condition's transcripts, and the note when the oldest do not fit the window. */
    private static final String FULL_CONTEXT = EvalPrompts.load("benchmark_full_context.md");
    private static final String FULL_CONTEXT_CUT = EvalPrompts.load("benchmark_full_context_cut.md");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEEE d MMMM yyyy, HH:mm", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    /** One answer in one condition. */
    record Answer(String questionId, String category, boolean special, String condition, String text,
            long tokens, long millis, boolean contextCut) {}

    /** One answer and the judge's verdict. */
    record Judged(Answer answer, boolean correct, String verdict, long judgeTokens) {}

    /** What the ingest stage did. */
    record Ingested(int sessions, int turns) {}

    /** What one pipeline stage (extract, consolidate) spent. */
    record Spent(long tokens, int requests, String outcome) {}

    /** A stage's list of answers or verdicts, as its checkpoint file holds it. */
    record Answers(List<Answer> answers) {}

    /** The judge stage's checkpoint. */
    record Verdicts(List<Judged> judged) {}

    /** What the conversation spent on Phase 1 and 2, and every answer judged. */
    record Outcome(long pipelineTokens, List<Judged> judged) {}

    private final Benchmark benchmark;
    private final BenchmarkSet.Conversation conversation;
    /** The model under test as given, for its window and token counter. */
    private final LanguageModel model;
    /** The same model, every request and answer recorded in the run directory. */
    private final LanguageModel recording;
    private final BenchmarkJudge judge;
    /** The conversation's folder: its checkpoints and its Mnemo home. */
    private final Path dir;

    BenchmarkConversation(Benchmark benchmark, BenchmarkSet.Conversation conversation, LanguageModel model,
            LanguageModel recording, BenchmarkJudge judge, Path runDirectory) {
        this.benchmark = benchmark;
        this.conversation = conversation;
        this.model = model;
        this.recording = recording;
        this.judge = judge;
        this.dir = runDirectory.resolve(BenchmarkRun.FOLDER)
                .resolve(conversation.id().replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    /**
     * Runs the stages that have no checkpoint yet, in order; a conversation whose every figure is
     * checkpointed opens no home at all.
     */
    Outcome run() {
        Optional<Verdicts> judged = read("judge", Verdicts.class);
        Optional<Spent> extracted = read("extract", Spent.class);
        Optional<Spent> consolidated = read("consolidate", Spent.class);
        if (judged.isPresent() && extracted.isPresent() && consolidated.isPresent()) {
            return new Outcome(extracted.get().tokens() + consolidated.get().tokens(), judged.get().judged());
        }
        boolean ingested = read("ingest", Ingested.class).isPresent();
        try (EvalHome home = ingested ? EvalHome.reopen(dir.resolve("home"), recording, CONFIG)
                : EvalHome.fresh(dir.resolve("home"), recording, CONFIG)) {
            // 1. Ingest: every session recorded with the clock at its own date.
            if (!ingested) {
                write("ingest", ingest(home));
            }
            // 2. Extract: Phase 1 as each session goes idle.
            Spent extract = extracted.orElseGet(() -> write("extract", extract(home)));
            // 3. Consolidate: Phase 2 once, after the last session.
            Spent consolidate = consolidated.orElseGet(() -> write("consolidate", consolidate(home)));
            // 4. Answer every question in each condition.
            Answers answers = read("answer", Answers.class).orElseGet(() -> write("answer", answer(home)));
            // 5. Judge every answer.
            Verdicts verdicts = judged.orElseGet(() -> write("judge", judge(answers)));
            return new Outcome(extract.tokens() + consolidate.tokens(), verdicts.judged());
        }
    }

    private Ingested ingest(EvalHome home) {
        int turns = 0;
        int index = 0;
        for (BenchmarkSet.Session session : conversation.sessions()) {
            // The index keeps thread ids apart even where a file repeats a session id.
            home.record(SessionContext.root(conversation.id() + "-session-" + ++index + "-" + session.id()), session);
            turns += session.turns().size();
        }
        return new Ingested(conversation.sessions().size(), turns);
    }

    /** Phase 1 a little after each session goes idle, so each is extracted while young enough. */
    private Spent extract(EvalHome home) {
        TokenUsage usage = TokenUsage.ZERO;
        int requests = 0;
        Duration idle = Duration.ofHours(CONFIG.minRolloutIdleHours() + 1L);
        for (Instant end : new TreeSet<>(conversation.sessions().stream().map(BenchmarkSet.Session::end).toList())) {
            EvalHome.Phase1Only run = home.runPhase1At(end.plus(idle));
            usage = usage.plus(run.usage());
            requests += run.requests();
        }
        return new Spent(usage.totalTokens(), requests, "");
    }

    private Spent consolidate(EvalHome home) {
        Phase2Report report = home.runPhase2At(pipelineEnd());
        return new Spent(report.usage().totalTokens(), 0, report.outcome().name());
    }

    /** A little after the last session went idle: when Phase 2 runs and the questions are asked at the earliest. */
    private Instant pipelineEnd() {
        return conversation.sessions().stream().map(BenchmarkSet.Session::end).max(Comparator.naturalOrder())
                .orElse(conversation.askedAt()).plus(Duration.ofHours(CONFIG.minRolloutIdleHours() + 2L));
    }

    private Answers answer(EvalHome home) {
        Answering answering = new Answering(recording, conversation.id());
        Instant pipelineEnd = pipelineEnd();
        home.clockAt(conversation.askedAt().isAfter(pipelineEnd) ? conversation.askedAt() : pipelineEnd);
        String instructions = instructions();
        FullContext full = fullContext();
        List<Answer> answers = new ArrayList<>();
        for (BenchmarkSet.Question q : conversation.questions()) {
            for (String condition : BenchmarkRun.CONDITIONS) {
                long start = System.nanoTime();
                Answering.Answer answer = switch (condition) {
                    case "mnemo" -> {
                        SessionContext context = new SessionContext("eval-question-" + q.id(), "app", true, false,
                                Optional.empty());
                        try (MemorySession session = home.engine().openSession(context)) {
                            yield answering.withMemory(session, instructions, q.question());
                        }
                    }
                    case "no_memory" -> answering.without(instructions, q.question());
                    default -> answering.without(instructions + "\n\n" + full.text(), q.question());
                };
                answers.add(new Answer(q.id(), q.category(), q.special(), condition, answer.text(),
                        answer.usage().totalTokens(), Duration.ofNanos(System.nanoTime() - start).toMillis(),
                        condition.equals("full_context") && full.cut()));
            }
        }
        return new Answers(answers);
    }

    private String instructions() {
        return EvalPrompts.fill(ANSWER_INSTRUCTIONS, Map.of("now", DAY.format(conversation.askedAt())));
    }

    /**
     * The whole conversation, oldest sessions left out while it does not fit the model's window;
     * a newest session that does not fit alone keeps its end. Fits by the model's own token counter.
     */
    private FullContext fullContext() {
        List<String> sessions = new ArrayList<>(conversation.transcripts());
        OptionalInt window = model.contextWindowTokens();
        int dropped = 0;
        if (window.isPresent() && !sessions.isEmpty()) {
            int budget = Math.max(1, window.getAsInt() - WINDOW_RESERVE);
            TokenCounter counter = model.tokenCounter();
            // The fewest oldest sessions left out for the rest to fit, by bisection: a few counts of
            // the joined text, where leaving them out one by one counted it once for each.
            int low = 0;
            int high = sessions.size() - 1;
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (counter.count(String.join("\n", sessions.subList(mid, sessions.size()))) <= budget) {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            sessions = new ArrayList<>(sessions.subList(low, sessions.size()));
            dropped = low;
            if (counter.count(sessions.get(0)) > budget) {
                sessions.set(0, endWithin(sessions.get(0), budget, counter));
                dropped++;
            }
        }
        String note = dropped == 0 ? "" : EvalPrompts.fill(FULL_CONTEXT_CUT, Map.of("dropped",
                Integer.toString(dropped), "sessions", Integer.toString(conversation.sessions().size()))) + "\n";
        return new FullContext(EvalPrompts.fill(FULL_CONTEXT, Map.of("note", note, "transcripts",
                String.join("\n", sessions))), dropped > 0);
    }

    /**
     * An end of {@code text} that counts at most {@code budget} tokens by {@code counter}: four
     * characters a token at most (Codex's estimate), fewer where the counter finds the text denser
     * (code, JSON, another script), narrowed until it fits.
     */
    static String endWithin(String text, int budget, TokenCounter counter) {
        int length = Math.min(text.length(), budget * 4);
        while (length > 0) {
            String end = endOf(text, length);
            int tokens = counter.count(end);
            if (tokens <= budget) {
                return end;
            }
            length = Math.min(length - 1, (int) ((long) length * budget / tokens));
        }
        return "";
    }

    /** The last {@code length} characters of {@code text}, without half of a surrogate pair. */
    private static String endOf(String text, int length) {
        int start = text.length() - length;
        if (start > 0 && Character.isLowSurrogate(text.charAt(start))) {
            start++;
        }
        return text.substring(start);
    }

    private Verdicts judge(Answers answers) {
        Map<String, BenchmarkSet.Question> questions = new TreeMap<>();
        conversation.questions().forEach(q -> questions.put(q.id(), q));
        List<Judged> judged = new ArrayList<>();
        for (Answer answer : answers.answers()) {
            BenchmarkJudge.Verdict verdict = judge.grade(benchmark, questions.get(answer.questionId()), answer.text());
            judged.add(new Judged(answer, verdict.correct(), verdict.reply(), verdict.usage().totalTokens()));
        }
        return new Verdicts(judged);
    }

    private <T> Optional<T> read(String stage, Class<T> type) {
        Path path = dir.resolve(stage + ".json");
        if (!Files.isRegularFile(path)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(path.toFile(), type));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the checkpoint " + path + "; delete it to redo that stage", e);
        }
    }

    private <T> T write(String stage, T value) {
        Path path = dir.resolve(stage + ".json");
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve(stage + ".json.tmp");
            JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), value);
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the checkpoint " + path, e);
        }
        LOG.info("eval: {} {} done", conversation.id(), stage);
        return value;
    }

    private record FullContext(String text, boolean cut) {}
}
