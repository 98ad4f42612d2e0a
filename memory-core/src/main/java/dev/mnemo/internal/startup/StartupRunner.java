package dev.mnemo.internal.startup;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.RateLimitSnapshot;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.RolloutSource;
import dev.mnemo.spi.Stage1Store;
import dev.mnemo.spi.ThreadStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The startup task's body: gates, then the steps of SPEC §Startup task in order. Each step's
 * failure is logged and reported and does not stop the session; only the gates and the rate-limit
 * guard skip the steps after them.
 */
public final class StartupRunner {

    private static final Logger LOG = LoggerFactory.getLogger(StartupRunner.class);

    /** Codex {@code PRUNE_BATCH_SIZE}: stage-1 rows deleted at most per startup. */
    public static final int PRUNE_BATCH_SIZE = 200;

    /**
     * What a run works with.
     *
     * @param threads the thread registry the rollout sources are synced into (step 3)
     * @param stage1 the stage-1 outputs retention prunes (step 4)
     * @param rateLimitModel the model whose rate limits the guard reads (null: none configured)
     * @param phase1 runs Phase 1 for the current thread id (null: no extraction model)
     * @param phase2 runs Phase 2 (null: no consolidation model or agent)
     * @param wallClock times the elapsed duration (the pipeline clock may be fixed for a replay)
     */
    public record Dependencies(Path memoryRoot, MemoriesConfig config, ThreadStore threads, Stage1Store stage1,
            List<RolloutSource> sources, LanguageModel rateLimitModel, Function<String, Phase1Report> phase1,
            Supplier<Phase2Report> phase2, Clock clock, Clock wallClock, MemoryEventListener listener,
            Supplier<Set<String>> keptThreads) {
        public Dependencies {
            Objects.requireNonNull(memoryRoot, "memoryRoot");
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(threads, "threads");
            Objects.requireNonNull(stage1, "stage1");
            sources = List.copyOf(sources);
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(wallClock, "wallClock");
            Objects.requireNonNull(listener, "listener");
            Objects.requireNonNull(keptThreads, "keptThreads");
        }

        /** With one store serving both roles. */
        public Dependencies(Path memoryRoot, MemoriesConfig config, MemoryStore store, List<RolloutSource> sources,
                LanguageModel rateLimitModel, Function<String, Phase1Report> phase1, Supplier<Phase2Report> phase2,
                Clock clock, Clock wallClock, MemoryEventListener listener, Supplier<Set<String>> keptThreads) {
            this(memoryRoot, config, Objects.requireNonNull(store, "store"), store, sources, rateLimitModel, phase1,
                    phase2, clock, wallClock, listener, keptThreads);
        }

        /** Without sparing any memory from retention (for a workspace that keeps no history). */
        public Dependencies(Path memoryRoot, MemoriesConfig config, MemoryStore store, List<RolloutSource> sources,
                LanguageModel rateLimitModel, Function<String, Phase1Report> phase1, Supplier<Phase2Report> phase2,
                Clock clock, Clock wallClock, MemoryEventListener listener) {
            this(memoryRoot, config, store, sources, rateLimitModel, phase1, phase2, clock, wallClock, listener, Set::of);
        }
    }

    /**
     * Retention's prune, sparing the memories of {@code keep} (the threads a kept consolidation
     * used, which a forget's re-consolidation needs); a store that cannot spare them prunes as
     * before, which a forget may then cost those memories.
     */
    public static int prune(Stage1Store store, MemoriesConfig config, Instant now, Set<String> keep) {
        try {
            return store.pruneStage1Outputs(config.maxUnusedDays(), PRUNE_BATCH_SIZE, now, keep);
        } catch (UnsupportedOperationException e) {
            LOG.warn("{}; pruning without sparing them", e.getMessage());
            return store.pruneStage1Outputs(config.maxUnusedDays(), PRUNE_BATCH_SIZE, now);
        }
    }

    private final Dependencies deps;

    public StartupRunner(Dependencies deps) {
        this.deps = Objects.requireNonNull(deps, "deps");
    }

    /** The gate that stops a run before any work, if any. */
    public Optional<SkipReason> gate(SessionContext session) {
        if (!deps.config().generateMemories()) {
            return Optional.of(SkipReason.GENERATION_DISABLED);
        }
        if (session.ephemeral()) {
            return Optional.of(SkipReason.EPHEMERAL_SESSION);
        }
        if (session.subAgent()) {
            return Optional.of(SkipReason.SUB_AGENT_SESSION);
        }
        if (deps.phase1() == null && deps.phase2() == null) {
            return Optional.of(SkipReason.NO_MODEL);
        }
        return Optional.empty();
    }

    /** Runs the pipeline for {@code session}; {@code cancelled} is checked between steps. */
    public StartupReport run(SessionContext session, BooleanSupplier cancelled) {
        Instant started = deps.wallClock().instant();
        // 1. Gates: nothing is written when one applies.
        Optional<SkipReason> skip = gate(session);
        if (skip.isPresent()) {
            return skipped(skip.get(), started);
        }
        // 2. Memory root and the ad-hoc extension's instructions.
        step("prepare memory root", () -> MemoryRoot.prepare(deps.memoryRoot()));
        // 3. Thread registry from the rollout sources.
        step("sync threads", () -> deps.listener().threadsSynced(ThreadSync.sync(deps.threads(), deps.sources())));
        // 4. Retention: spends no tokens, so it runs before the rate-limit guard.
        step("prune", () -> prune(deps.stage1(), deps.config(), deps.clock().instant(), deps.keptThreads().get()));
        // 5. Rate-limit guard.
        Optional<RateLimitSnapshot> limits = deps.rateLimitModel() == null ? Optional.empty()
                : deps.rateLimitModel().rateLimits();
        if (!RateLimitGuard.allowsStartup(limits, deps.config().minRateLimitRemainingPercent())) {
            LOG.info("memory startup skipped: rate limits below {}% remaining ({})",
                    deps.config().minRateLimitRemainingPercent(), limits.orElseThrow());
            return skipped(SkipReason.RATE_LIMITED, started);
        }
        // 6. Phase 1, for every claimable rollout but this session's own. The day's extraction
        //    budget (max_extraction_tokens_per_day) may stop it: Phase 1 checks it before its claim
        //    and before each job, and reports token_budget_exhausted.
        Phase1Report phase1 = Phase1Report.empty();
        if (deps.phase1() != null && !cancelled.getAsBoolean()) {
            phase1 = deps.phase1().apply(session.threadId());
        }
        Optional<SkipReason> phase1Skip = phase1.skipped();
        if (phase1Skip.isPresent()) {
            LOG.info("memory startup: Phase 1 stopped ({}); Phase 2 still runs on the memories already extracted",
                    phase1Skip.get().code());
            deps.listener().startupSkipped(phase1Skip.get());
        }
        // 7. Phase 2, after every Phase 1 job has finished. It runs even when the budget stopped
        //    Phase 1: it spends no extraction tokens, and it is only queued when memories changed.
        Phase2Report phase2 = Phase2Report.notRun();
        if (deps.phase2() != null && !cancelled.getAsBoolean()) {
            phase2 = deps.phase2().get();
        }
        StartupReport report = new StartupReport(phase1Skip, phase1, phase2, elapsedSince(started));
        deps.listener().startupFinished(report);
        return report;
    }

    private StartupReport skipped(SkipReason reason, Instant started) {
        LOG.debug("memory startup skipped: {}", reason);
        deps.listener().startupSkipped(reason);
        StartupReport report = StartupReport.skipped(reason, elapsedSince(started));
        deps.listener().startupFinished(report);
        return report;
    }

    private Duration elapsedSince(Instant started) {
        Duration elapsed = Duration.between(started, deps.wallClock().instant());
        return elapsed.isNegative() ? Duration.ZERO : elapsed;
    }

    private static void step(String name, Step step) {
        try {
            step.run();
        } catch (Exception e) {
            LOG.warn("memory startup step '{}' failed; continuing with the next step", name, e);
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }
}
