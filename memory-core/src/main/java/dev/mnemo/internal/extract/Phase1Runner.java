package dev.mnemo.internal.extract;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase1JobReport;
import dev.mnemo.Phase1Report;
import dev.mnemo.SkipReason;
import dev.mnemo.internal.events.BackgroundOperations;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ApprovalStore;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Store;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import dev.mnemo.ThreadGoal;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 1: claim idle rollouts and extract one raw memory from each, several at a time
 * (Codex's {@code phase1::run}).
 */
public final class Phase1Runner {

    private static final Logger LOG = LoggerFactory.getLogger(Phase1Runner.class);

    /** Codex {@code THREAD_SCAN_LIMIT}: candidate threads looked at per claim. */
    public static final int THREAD_SCAN_LIMIT = 5_000;
    /** Codex {@code JOB_LEASE_SECONDS}. */
    public static final Duration JOB_LEASE = Duration.ofSeconds(3_600);
    /** Codex {@code JOB_RETRY_DELAY_SECONDS}. */
    public static final Duration RETRY_DELAY = Duration.ofSeconds(3_600);
    /**
     * Model failures that are not the rollout's fault (Mnemo): the model is unreachable
     * ({@code NETWORK}, {@code TIMEOUT}), refuses the credentials ({@code AUTHENTICATION}), is rate
     * limited, fails on its side ({@code SERVER}), or rejects the request as such
     * ({@code INVALID_REQUEST}: an unknown model, an unsupported parameter — a configuration
     * problem). A job failing for one of these, in any part or merge of a long rollout, is released
     * without spending a retry. A context-window error is not a failure: the job resends smaller
     * ({@code ExtractionBudget}); only a request that cannot shrink further fails it. That, content
     * the provider filters, and {@code UNKNOWN} failures (an answer that is not JSON, …) spend a
     * retry, as bad extractions do.
     */
    public static final Set<ModelException.Reason> MODEL_FAILURE_REASONS = Set.copyOf(EnumSet.of(
            ModelException.Reason.NETWORK, ModelException.Reason.TIMEOUT, ModelException.Reason.AUTHENTICATION,
            ModelException.Reason.RATE_LIMITED, ModelException.Reason.SERVER, ModelException.Reason.INVALID_REQUEST));
    /**
     * How long a job released after a model failure waits before it may be claimed again (Mnemo):
     * short, because fixing a model setting and running again should not wait Codex's hour.
     */
    public static final Duration MODEL_FAILURE_RETRY_DELAY = Duration.ofMinutes(5);
    /** How long an interrupted run waits for its helpers' jobs in flight. */
    static final Duration HELPERS_WIND_DOWN = Duration.ofSeconds(10);
    /** Codex {@code DEFAULT_ROLLOUT_TOKEN_LIMIT}: the input budget when the context window is unknown. */
    public static final long DEFAULT_ROLLOUT_TOKEN_LIMIT = 150_000;
    /** Codex {@code CONTEXT_WINDOW_PERCENT}. */
    public static final int CONTEXT_WINDOW_PERCENT = 70;
    /** Bytes per token, as Codex approximates ({@link TokenCounter#BYTES_PER_TOKEN}). */
    public static final int BYTES_PER_TOKEN = TokenCounter.BYTES_PER_TOKEN;

    /**
     * What Phase 1 works with.
     *
     * @param stage1 where the jobs are claimed and their results recorded
     * @param approvals the notes a person rejected, kept out of each result
     * @param workerId owner of the claimed jobs
     * @param listener hears each job's end (already safe to call)
     * @param goals the goal of a thread, shown to the model as context (beyond Codex)
     */
    public record Dependencies(Stage1Store stage1, ApprovalStore approvals, LanguageModel model, RolloutInput input,
            SecretRedactor redactor, MemoriesConfig config, Clock clock, String workerId, MemoryEventListener listener,
            Function<String, Optional<ThreadGoal>> goals) {

        /** With one store serving both roles. */
        public Dependencies(MemoryStore store, LanguageModel model, RolloutInput input, SecretRedactor redactor,
                MemoriesConfig config, Clock clock, String workerId, MemoryEventListener listener,
                Function<String, Optional<ThreadGoal>> goals) {
            this(Objects.requireNonNull(store, "store"), store, model, input, redactor, config, clock, workerId,
                    listener, goals);
        }

        /** Dependencies of a Phase 1 that shows no goals. */
        public Dependencies(MemoryStore store, LanguageModel model, RolloutInput input, SecretRedactor redactor,
                MemoriesConfig config, Clock clock, String workerId, MemoryEventListener listener) {
            this(store, model, input, redactor, config, clock, workerId, listener, threadId -> Optional.empty());
        }

        public Dependencies {
            Objects.requireNonNull(goals, "goals");
            Objects.requireNonNull(stage1, "stage1");
            Objects.requireNonNull(approvals, "approvals");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(redactor, "redactor");
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(workerId, "workerId");
            Objects.requireNonNull(listener, "listener");
        }
    }

    private final Dependencies deps;
    private final Executor workers;
    private final BackgroundOperations operations;

    /**
     * @param workers lends helper threads for parallel jobs (the engine's executor); the thread that
     *     calls {@link #run} works through the jobs too
     */
    public Phase1Runner(Dependencies deps, Executor workers) {
        this(deps, workers, BackgroundOperations.silent());
    }

    /**
     * @param operations hears each stage-1 output stored, as a {@code create_memory} of the run the
     *     calling thread works for
     */
    public Phase1Runner(Dependencies deps, Executor workers, BackgroundOperations operations) {
        this.deps = Objects.requireNonNull(deps, "deps");
        this.workers = Objects.requireNonNull(workers, "workers");
        this.operations = Objects.requireNonNull(operations, "operations");
    }

    /**
     * Claims and extracts; never throws for store or model failures (they are logged and counted).
     *
     * <p>With a daily extraction budget ({@code max_extraction_tokens_per_day}), nothing is claimed
     * once today's (UTC) spend has reached it, and each job first reserves its estimate: a job the
     * budget has no room for is released unrun, keeping its retries. Either way the report's
     * {@link Phase1Report#skipped()} is {@link SkipReason#TOKEN_BUDGET_EXHAUSTED}. See
     * {@link DailyBudget} for how far concurrent jobs can run past the limit.
     */
    public Phase1Report run(String currentThreadId) {
        Optional<DailyBudget> budget = DailyBudget.of(deps);
        // 1. The day's extraction budget: nothing is claimed once it is spent.
        if (budget.isPresent()) {
            Optional<Phase1Report> stopped = stopForBudget(budget.get());
            if (stopped.isPresent()) {
                return stopped.get();
            }
        }
        // 2. Claim.
        List<Stage1Claim> claims;
        try {
            claims = deps.stage1().claimStage1Jobs(claimParams(currentThreadId), deps.clock().instant());
        } catch (RuntimeException e) {
            LOG.warn("memory stage-1 claim failed; Phase 1 skipped this run", e);
            return Phase1Report.empty();
        }
        deps.listener().phase1Claimed(claims.size());
        if (claims.isEmpty()) {
            LOG.debug("memory stage-1: no rollouts to extract");
            return Phase1Report.empty();
        }
        // 3. Extract, at most phase1_concurrency at a time, each job within the budget.
        List<Optional<Phase1Job.Outcome>> outcomes = runAll(claims, budget);
        // 4. Aggregate.
        Phase1Report report = summarize(claims.size(), outcomes);
        LOG.info("memory stage-1 extraction complete: {} job(s) claimed, {} succeeded, {} with nothing to keep, "
                        + "{} failed, {} deferred for the daily token budget, {} tokens", report.claimed(),
                report.succeeded(), report.succeededNoOutput(), report.failed(), report.deferred(),
                report.usage().totalTokens());
        if (report.deferred() > 0) {
            budget.ifPresent(b -> announceExhausted(b, report.deferred()));
        }
        return report;
    }

    /**
     * The report of a run the budget stops before its claim: today's spend has reached the limit.
     * A ledger that cannot be read stops the run too (logged): a budget that cannot be checked is
     * not spent.
     */
    private Optional<Phase1Report> stopForBudget(DailyBudget budget) {
        ExtractionBudget today;
        try {
            today = budget.today();
        } catch (RuntimeException e) {
            LOG.warn("memory stage-1 skipped: today's extraction token budget could not be read", e);
            return Optional.of(Phase1Report.empty());
        }
        if (!today.exhausted()) {
            return Optional.empty();
        }
        LOG.info("memory stage-1 skipped ({}): today's extraction tokens are {}", SkipReason.TOKEN_BUDGET_EXHAUSTED.code(),
                today.describe());
        deps.listener().phase1BudgetExhausted(today, 0);
        return Optional.of(Phase1Report.budgetExhausted());
    }

    private void announceExhausted(DailyBudget budget, int deferred) {
        try {
            deps.listener().phase1BudgetExhausted(budget.today(), deferred);
        } catch (RuntimeException e) {
            LOG.debug("memory stage-1: today's extraction budget could not be read after the run", e);
        }
    }

    private Stage1ClaimParams claimParams(String currentThreadId) {
        return claimParams(deps.config(), currentThreadId, deps.workerId());
    }

    /** The claim a Phase 1 run makes under {@code config} (also used by the dry-run preview). */
    public static Stage1ClaimParams claimParams(MemoriesConfig c, String currentThreadId, String workerId) {
        return new Stage1ClaimParams(currentThreadId, workerId, THREAD_SCAN_LIMIT, c.maxRolloutsPerStartup(),
                c.maxRolloutAgeDays(), c.minRolloutIdleHours(), c.memorySources(), JOB_LEASE);
    }

    /**
     * Runs the jobs on this thread and on up to {@code phase1_concurrency - 1} helpers from the
     * engine's executor, all taking claims from one queue: a busy executor only lowers the
     * parallelism, it never stalls the run.
     */
    private List<Optional<Phase1Job.Outcome>> runAll(List<Stage1Claim> claims, Optional<DailyBudget> budget) {
        AtomicBoolean aborted = new AtomicBoolean();
        Phase1Job job = new Phase1Job(deps, aborted::get, new Phase1Job.Stored(operations,
                BackgroundOperations.currentRun()));
        Queue<Stage1Claim> pending = new ConcurrentLinkedQueue<>(claims);
        BlockingQueue<Optional<Phase1Job.Outcome>> done = new LinkedBlockingQueue<>();
        Runnable worker = () -> {
            Stage1Claim claim;
            while (!aborted.get() && !Thread.currentThread().isInterrupted() && (claim = pending.poll()) != null) {
                done.add(runOne(job, claim, budget));
            }
        };
        int helpers = Math.min(deps.config().phase1Concurrency(), claims.size()) - 1;
        List<FutureTask<Void>> submitted = new ArrayList<>(helpers);
        Phaser helping = new Phaser(1); // the run's thread, and each helper while it runs
        Runnable helperWork = () -> {
            helping.register();
            try {
                worker.run();
            } finally {
                helping.arriveAndDeregister();
            }
        };
        try {
            for (int i = 0; i < helpers; i++) {
                FutureTask<Void> helper = new FutureTask<>(helperWork, null);
                workers.execute(helper);
                submitted.add(helper);
            }
        } catch (RejectedExecutionException e) {
            LOG.debug("memory stage-1: the executor took {} of {} helpers; the rest of the jobs run here",
                    submitted.size(), helpers);
        }
        try {
            worker.run();
            List<Optional<Phase1Job.Outcome>> outcomes = new ArrayList<>(claims.size());
            for (int i = 0; i < claims.size(); i++) {
                outcomes.add(done.take());
            }
            return outcomes;
        } catch (InterruptedException e) {
            aborted.set(true);
            submitted.forEach(helper -> helper.cancel(true));
            awaitHelpers(helping);
            Thread.currentThread().interrupt();
            throw new Phase1InterruptedException();
        } finally {
            submitted.forEach(helper -> helper.cancel(true));
        }
    }

    /**
     * After the run was interrupted: lets the helpers still in a job finish it (they take no other),
     * up to {@link #HELPERS_WIND_DOWN}, so what a job stores is told inside the run, before it ends.
     * A helper registers before it takes a claim; one registering after the wait takes none, since
     * the run is marked aborted first.
     */
    private static void awaitHelpers(Phaser helping) {
        try {
            helping.awaitAdvanceInterruptibly(helping.arrive(), HELPERS_WIND_DOWN.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException e) {
            LOG.warn("memory stage-1 run interrupted: a helper's job still runs after {} s; its result is told "
                    + "after the run ends", HELPERS_WIND_DOWN.toSeconds());
        }
    }

    /**
     * One job and its event; never throws, so every claim yields exactly one result: the job's
     * outcome, or empty when the daily budget had no room for it (released unrun). A job that ran
     * settles its reservation with the model's reported usage on every exit path.
     */
    private Optional<Phase1Job.Outcome> runOne(Phase1Job job, Stage1Claim claim, Optional<DailyBudget> budget) {
        Optional<DailyBudget.Reservation> reservation = Optional.empty();
        if (budget.isPresent()) {
            reservation = reserve(budget.get(), claim);
            if (reservation.isEmpty()) {
                budget.get().defer(claim);
                return Optional.empty();
            }
        }
        long started = System.nanoTime(); // a measurement for the report, not a decision: no clock
        Phase1Job.Outcome outcome = null;
        Phase1Job.Outcome reported = null; // the job's own outcome: its usage is what the model reported
        try {
            outcome = job.run(claim);
            reported = outcome;
        } catch (RuntimeException | Error e) {
            LOG.error("memory stage-1 job for thread {} escaped its own error handling", claim.thread().id(), e);
            outcome = Phase1Job.Outcome.failed("internal error: " + e, TokenUsage.ZERO);
        } finally {
            if (reservation.isPresent()) {
                settle(budget.get(), reservation.get(), reported, claim);
            }
        }
        deps.listener().phase1JobFinished(new Phase1JobReport(claim.thread().id(), outcome.kind().outcome,
                outcome.error(), Duration.ofNanos(System.nanoTime() - started), outcome.usage()));
        return Optional.of(outcome);
    }

    /** The job's reservation; empty when refused, or when the ledger fails (logged: the job then waits). */
    private static Optional<DailyBudget.Reservation> reserve(DailyBudget budget, Stage1Claim claim) {
        try {
            return budget.reserve(claim);
        } catch (RuntimeException e) {
            LOG.warn("memory stage-1 job for thread {}: the extraction budget could not be reserved; the job waits",
                    claim.thread().id(), e);
            return Optional.empty();
        }
    }

    /**
     * Settles a job's reservation by its outcome's usage. Without one (the job escaped its own
     * error handling) the usage is unknown and the reservation stays counted in full.
     */
    private static void settle(DailyBudget budget, DailyBudget.Reservation reservation, Phase1Job.Outcome outcome,
            Stage1Claim claim) {
        if (outcome == null) {
            LOG.warn("memory stage-1 job for thread {} ended without an outcome; its reservation of {} tokens stays "
                    + "counted", claim.thread().id(), reservation.tokens());
            return;
        }
        budget.settle(reservation, outcome.usage(), claim.thread().id());
    }

    private static Phase1Report summarize(int claimed, List<Optional<Phase1Job.Outcome>> results) {
        int succeeded = 0;
        int noOutput = 0;
        int failed = 0;
        int deferred = 0;
        TokenUsage usage = TokenUsage.ZERO;
        for (Optional<Phase1Job.Outcome> result : results) {
            if (result.isEmpty()) {
                deferred++;
                continue;
            }
            Phase1Job.Outcome outcome = result.get();
            switch (outcome.kind()) {
                case SUCCEEDED -> succeeded++;
                case SUCCEEDED_NO_OUTPUT -> noOutput++;
                case FAILED -> failed++;
            }
            usage = usage.plus(outcome.usage());
        }
        return new Phase1Report(claimed, succeeded, noOutput, failed, usage, deferred,
                deferred > 0 ? Optional.of(SkipReason.TOKEN_BUDGET_EXHAUSTED) : Optional.empty());
    }

    /** The run was interrupted (engine closing); the jobs it held are released by the engine. */
    public static final class Phase1InterruptedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Phase1InterruptedException() {
            super("Phase 1 was interrupted");
        }
    }
}
