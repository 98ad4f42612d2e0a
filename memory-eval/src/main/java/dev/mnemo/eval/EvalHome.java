package dev.mnemo.eval;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.TokenUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One fresh Mnemo home of a scenario, under the run directory, with the clock the scenario places:
 * past sessions are recorded at their own day, then the pipeline runs once they are all idle.
 */
final class EvalHome implements AutoCloseable {

    static final Instant FIRST_SESSION = Instant.parse("2026-01-05T09:00:00Z");
    /** A day after the last session: every session is idle (6 h) and young enough (10 days). */
    static final Duration PIPELINE_DELAY = Duration.ofDays(6);
    private static final int MAX_PHASE1_RUNS = 20;

    private final Path home;
    private final EvalClock clock = new EvalClock(FIRST_SESSION);
    private final MemoryEngine engine;
    private final java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();

    private EvalHome(Path home, LanguageModel model, MemoriesConfig config) {
        this.home = home;
        this.engine = MemoryEngine.builder().home(home).model(new CountingModel(model, requests)).config(config)
                .clock(clock).build();
    }

    /** A home at {@code home}, emptied first (what an interrupted run left there is not reused). */
    static EvalHome fresh(Path home, LanguageModel model) {
        return fresh(home, model, MemoriesConfig.builder().disableOnExternalContext(true).maxRolloutsPerStartup(16).build());
    }

    /** A fresh home at {@code home} whose engine runs with {@code config}. */
    static EvalHome fresh(Path home, LanguageModel model, MemoriesConfig config) {
        try {
            if (Files.exists(home)) {
                try (Stream<Path> walk = Files.walk(home)) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(home);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the eval home " + home, e);
        }
        return new EvalHome(home, model, config);
    }

    /**
     * A home at {@code home} as an earlier run left it (created when missing): for a benchmark
     * conversation whose finished stages are not done again.
     */
    static EvalHome reopen(Path home, LanguageModel model, MemoriesConfig config) {
        try {
            Files.createDirectories(home);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the eval home " + home, e);
        }
        return new EvalHome(home, model, config);
    }

    /** Places the pipeline's clock at {@code at}. */
    void clockAt(Instant at) {
        clock.set(at);
    }

    /** Records a benchmark session as it happened: from its start, a minute a turn. */
    void record(SessionContext context, BenchmarkSet.Session past) {
        Instant at = past.start();
        clock.set(at);
        try (RecordedSession session = engine.sessions().start(context)) {
            for (BenchmarkSet.Turn turn : past.turns()) {
                if (turn.user()) {
                    session.userMessage(turn.text());
                } else {
                    session.assistantMessage(turn.text());
                }
                at = at.plusSeconds(60);
                clock.set(at);
            }
        }
    }

    /** At {@code at}: Phase 1 until nothing more is claimed, counting its requests. */
    Phase1Only runPhase1At(Instant at) {
        clock.set(at);
        int before = requests.get();
        TokenUsage usage = TokenUsage.ZERO;
        for (int i = 0; i < MAX_PHASE1_RUNS; i++) {
            Phase1Report report = engine.admin().runPhase1("eval-probe");
            usage = usage.plus(report.usage());
            if (report.claimed() == 0) {
                break;
            }
        }
        return new Phase1Only(usage, requests.get() - before);
    }

    /** At {@code at}: Phase 2. */
    Phase2Report runPhase2At(Instant at) {
        clock.set(at);
        return engine.admin().runPhase2();
    }

    MemoryEngine engine() {
        return engine;
    }

    /** The home's memory folder. */
    Path memories() {
        return home.resolve("memories");
    }

    /**
     * Records a past session as it happened: at {@code past.day()} days after the first session,
     * a minute a turn. A polluted session takes in outside content after each user message.
     */
    void record(SessionContext context, Script.PastSession past) {
        Instant at = FIRST_SESSION.plus(Duration.ofDays(past.day()));
        clock.set(at);
        try (RecordedSession session = engine.sessions().start(context)) {
            for (Script.Turn turn : past.turns()) {
                session.userMessage(turn.user());
                if (past.polluted()) {
                    session.externalContext("web_search");
                }
                at = at.plus(Duration.ofMinutes(1));
                clock.set(at);
                session.assistantMessage(turn.assistant());
            }
        }
    }

    /**
     * What the pipeline did.
     *
     * @param extracted Phase 1 jobs that stored a memory
     */
    record Pipeline(int extracted, TokenUsage phase1Usage, Phase2Report phase2) {}

    /** What Phase 1 alone did: its usage, and how many extraction requests the model answered. */
    record Phase1Only(TokenUsage usage, int requests) {}

    /** Later, with every session idle: Phase 1 until nothing more is claimed, counting its requests. */
    Phase1Only runPhase1() {
        return runPhase1At(FIRST_SESSION.plus(PIPELINE_DELAY));
    }

    /**
     * Later, with every session idle: Phase 1 until nothing more is claimed (each run claims up to
     * {@code max_rollouts_per_startup}), then Phase 2.
     */
    Pipeline runPipeline() {
        clock.set(FIRST_SESSION.plus(PIPELINE_DELAY));
        int extracted = 0;
        TokenUsage usage = TokenUsage.ZERO;
        for (int i = 0; i < MAX_PHASE1_RUNS; i++) {
            Phase1Report report = engine.admin().runPhase1("eval-probe");
            extracted += report.succeeded();
            usage = usage.plus(report.usage());
            if (report.claimed() == 0) {
                break;
            }
        }
        return new Pipeline(extracted, usage, engine.admin().runPhase2());
    }

    @Override
    public void close() {
        engine.close();
    }

    /** The model, counting the requests it answers. */
    private record CountingModel(LanguageModel delegate, java.util.concurrent.atomic.AtomicInteger requests)
            implements dev.mnemo.llm.ForwardingLanguageModel {
        @Override
        public dev.mnemo.llm.ModelResponse respond(dev.mnemo.llm.ModelRequest request) {
            dev.mnemo.llm.ModelResponse response = delegate.respond(request);
            requests.incrementAndGet();
            return response;
        }
    }
}
