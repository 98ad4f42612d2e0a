package dev.mnemo.eval;

import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.TokenUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One scenario user, end to end, in their own home under the run directory: record the past
 * sessions with the clock placed at each, run Phase 1 and Phase 2 once they are all idle, then ask
 * every probe in every condition and grade the answers. A user whose {@code result.json} exists is
 * not run again.
 */
final class UserRun {

    /** The transcripts condition's framing of the user's past sessions. */
    private static final String TRANSCRIPTS = EvalPrompts.load("probe_transcripts.md");

    private final ScenarioUser user;
    private final LanguageModel model;
    private final ScenarioFolder folder;
    private final Answering answering;

    UserRun(ScenarioUser user, LanguageModel model, Path runDir) {
        this.user = user;
        this.model = model;
        this.folder = new ScenarioFolder(runDir, user.id());
        this.answering = new Answering(model, user.id());
    }

    UserOutcome run() {
        Optional<UserOutcome> earlier = folder.earlierResult(UserOutcome.class);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        long start = System.nanoTime();
        try (EvalHome home = EvalHome.fresh(folder.resolve("home"), model)) {
            // 1. The past, as it happened: each session recorded at its own time.
            for (Script.PastSession past : Script.sessions(user)) {
                home.record(SessionContext.root(user.id() + "-" + past.name()), past);
            }
            // 2. Later, with all of them idle: extraction, then consolidation.
            EvalHome.Pipeline pipeline = home.runPipeline();
            // 3. What the memory folder holds that it must not.
            String memoryText = memoryFolderText(home.memories());
            boolean secretInMemory = memoryText.contains(user.secret().value());
            boolean pollutedInMemory = Grader.contains(memoryText, user.polluted().keyword());
            // 4. The probes, in each condition.
            List<ProbeResult> results = new ArrayList<>();
            Map<Condition, TokenUsage> answerUsage = new EnumMap<>(Condition.class);
            for (Condition condition : Condition.values()) {
                TokenUsage used = TokenUsage.ZERO;
                for (Script.Probe probe : Script.probes(user)) {
                    Answering.Answer answer = ask(home, condition, probe);
                    results.add(Grader.grade(user.id(), probe, condition, answer.text()));
                    used = used.plus(answer.usage());
                }
                answerUsage.put(condition, used);
            }
            UserOutcome outcome = new UserOutcome(user.id(), results, pipeline.extracted(),
                    pipeline.phase2().outcome().name(), pipeline.phase1Usage(), pipeline.phase2().usage(), answerUsage,
                    secretInMemory, pollutedInMemory, Duration.ofNanos(System.nanoTime() - start).toMillis());
            folder.writeResult(outcome);
            return outcome;
        }
    }

    private Answering.Answer ask(EvalHome home, Condition condition, Script.Probe probe) {
        return switch (condition) {
            case MNEMO -> {
                SessionContext probeSession = new SessionContext("eval-probe-" + probe.id(), "app", true, false,
                        Optional.empty());
                try (MemorySession session = home.engine().openSession(probeSession)) {
                    yield answering.withMemory(session, Answering.BASE_INSTRUCTIONS, probe.question());
                }
            }
            case NO_MEMORY -> answering.without(Answering.BASE_INSTRUCTIONS, probe.question());
            case TRANSCRIPTS -> answering.without(Answering.BASE_INSTRUCTIONS + "\n\n"
                    + transcripts(home.engine().config().summaryTokenLimit()), probe.question());
        };
    }

    /**
     * The raw transcripts, newest kept, cut to the budget the memory summary gets (its token limit
     * at four bytes a token), so both conditions spend about the same on context.
     */
    String transcripts(int tokenBudget) {
        String all = Script.transcript(user);
        byte[] bytes = all.getBytes(StandardCharsets.UTF_8);
        int budget = tokenBudget * 4;
        String kept = bytes.length <= budget ? all
                : new String(bytes, bytes.length - budget, budget, StandardCharsets.UTF_8).replaceFirst("^\uFFFD+", "");
        return EvalPrompts.fill(TRANSCRIPTS, Map.of("transcripts", kept));
    }

    /** Every file of the memory folder but its git history, as one text. */
    private static String memoryFolderText(Path memories) {
        if (!Files.isDirectory(memories)) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        try (Stream<Path> walk = Files.walk(memories)) {
            for (Path file : walk.filter(Files::isRegularFile).filter(f -> !memories.relativize(f).startsWith(".git"))
                    .sorted().toList()) {
                text.append(new String(Files.readAllBytes(file), StandardCharsets.UTF_8)).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the memory folder " + memories, e);
        }
        return text.toString();
    }
}
