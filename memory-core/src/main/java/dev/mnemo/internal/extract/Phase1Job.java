package dev.mnemo.internal.extract;

import dev.mnemo.Approval;
import dev.mnemo.ModelFailure;
import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.internal.events.BackgroundOperations;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.MemoryOperation;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1Result;
import java.io.IOException;
import java.nio.file.Path;
import dev.mnemo.ThreadGoal;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Phase 1 job: read the claimed rollout, extract its memory in one request or, when it does
 * not fit one, in parts merged afterwards ({@link ExtractionPlan}), redact, and complete the job in
 * the store with the claim's ownership token. No request exceeds the budget
 * ({@link ExtractionBudget}); a context-window error makes the rest of the job smaller instead of
 * failing it.
 */
final class Phase1Job {

    private static final Logger LOG = LoggerFactory.getLogger(Phase1Job.class);

    /** How a job ended. */
    enum Kind {
        SUCCEEDED(Phase1JobOutcome.SUCCEEDED),
        SUCCEEDED_NO_OUTPUT(Phase1JobOutcome.SUCCEEDED_NO_OUTPUT),
        FAILED(Phase1JobOutcome.FAILED);

        final Phase1JobOutcome outcome;

        Kind(Phase1JobOutcome outcome) {
            this.outcome = outcome;
        }
    }

    /** @param modelFailure set when the model, not the rollout, failed: the job keeps its retries */
    record Outcome(Kind kind, TokenUsage usage, Optional<String> error, Optional<ModelFailure> modelFailure) {
        Outcome(Kind kind, TokenUsage usage, Optional<String> error) {
            this(kind, usage, error, Optional.empty());
        }

        static Outcome failed(String error, TokenUsage usage) {
            return new Outcome(Kind.FAILED, usage, Optional.of(error));
        }

        static Outcome modelFailed(ModelFailure failure, TokenUsage usage) {
            return new Outcome(Kind.FAILED, usage, Optional.of(failure.describe()), Optional.of(failure));
        }
    }

    /**
     * Where a stored output is told: a {@code create_memory} of the run the jobs work for (captured
     * on the run's thread, since helper threads do jobs too).
     */
    record Stored(BackgroundOperations operations, Optional<String> runId) {
        /** The stage-1 output of conversation {@code threadId}, {@code rawMemory}, was stored. */
        void created(String threadId, String rawMemory, BackgroundOperations.Start start) {
            operations.operation(MemoryOperation.Type.CREATE, SOURCE, Optional.of(threadId), 1, List.of(rawMemory),
                    start, Optional.empty(), runId);
        }
    }

    /** The source of a stored output's operation. */
    static final String SOURCE = "stage1_output";

    private final Phase1Runner.Dependencies deps;
    private final String model;
    private final BooleanSupplier aborted;
    private final Stored stored;

    /**
     * @param aborted true once the run is being cancelled: a job failing then is not marked failed
     *     (no backoff for a failure that is not the rollout's fault); the engine releases it instead
     * @param stored hears each output stored
     */
    Phase1Job(Phase1Runner.Dependencies deps, BooleanSupplier aborted, Stored stored) {
        this.deps = deps;
        this.model = deps.config().extractModel().orElse("");
        this.aborted = aborted;
        this.stored = stored;
    }

    Outcome run(Stage1Claim claim) {
        String threadId = claim.thread().id();
        BackgroundOperations.Start start = stored.operations().start();
        Outcome outcome;
        try {
            outcome = extract(claim, start);
        } catch (StoreCompletionException e) {
            // The store failed while recording the result: not the rollout's fault, so no retry is
            // spent; the claim stays with its lease (or is released when the engine closes).
            LOG.warn("memory stage-1 job for thread {}: the store failed while recording its result; the job is left "
                    + "to its lease", threadId, e.getCause());
            return Outcome.failed("store error while recording the result: " + e.getCause().getMessage(), e.usage);
        } catch (RuntimeException e) {
            // A bug or an unexpected failure in one job must not take the others down.
            LOG.warn("memory stage-1 job for thread {} failed unexpectedly", threadId, e);
            outcome = Outcome.failed("internal error: " + e, TokenUsage.ZERO);
        }
        if (outcome.kind() == Kind.FAILED && (aborted.getAsBoolean() || Thread.currentThread().isInterrupted())) {
            LOG.info("memory stage-1 job for thread {} stopped by cancellation; left for release", threadId);
        } else if (outcome.kind() == Kind.FAILED) {
            String reason = outcome.error().orElse("failed");
            try {
                boolean owned = outcome.modelFailure().isPresent()
                        ? deps.stage1().releaseStage1AfterModelFailure(threadId, claim.ownershipToken(),
                                outcome.modelFailure().get(), Phase1Runner.MODEL_FAILURE_RETRY_DELAY,
                                deps.clock().instant())
                        : deps.stage1().markStage1Failed(threadId, claim.ownershipToken(), reason,
                                Phase1Runner.RETRY_DELAY, deps.clock().instant());
                LOG.info("memory stage-1 job for thread {} failed{}: {}", threadId, owned ? "" : " (lease lost)", reason);
            } catch (RuntimeException e) {
                LOG.warn("memory stage-1 job for thread {} failed ({}) and the store could not record it; the job is "
                        + "left to its lease", threadId, reason, e);
            }
        }
        return outcome;
    }

    /** The thread's goal; none when the store keeps no goals or cannot read them now (logged). */
    private Optional<ThreadGoal> goalOf(String threadId) {
        try {
            return deps.goals().apply(threadId);
        } catch (RuntimeException e) {
            LOG.warn("memory stage-1 job for thread {}: its goal could not be read; extracting without it", threadId, e);
            return Optional.empty();
        }
    }

    private Outcome extract(Stage1Claim claim, BackgroundOperations.Start start) {
        String threadId = claim.thread().id();
        // 1. Read the rollout's rows, each no larger than one request can hold.
        String cwd = claim.thread().cwd().map(Path::toString).orElse("");
        RolloutContext context = new RolloutContext(deps.input().pathForModel(claim.thread()), cwd,
                GoalContext.describe(goalOf(threadId), deps.redactor()));
        ExtractionCalls calls = new ExtractionCalls(deps.model(), model, deps.clock(), threadId);
        long room = Math.max(1, calls.budget.requestBytes() - context.overheadBytes());
        RolloutRows read;
        try {
            read = deps.input().rows(claim.thread(), room);
        } catch (IOException e) {
            return Outcome.failed("cannot read rollout " + claim.thread().rolloutPath() + ": " + e.getMessage(),
                    TokenUsage.ZERO);
        }
        // 2. One request as Codex sends it, or parts within max_extraction_tokens_per_rollout.
        ExtractionPlan plan = ExtractionPlan.of(read.rows(), room, calls.budget,
                deps.config().maxExtractionTokensPerRollout());
        // 3. Ask the model: each request within the budget, resent smaller when the window rejects it.
        Optional<Stage1Result> extracted;
        try {
            extracted = plan.inParts() ? inParts(plan, context, calls) : Optional.of(inOne(plan, context, calls));
        } catch (ExtractionCalls.Stop stop) {
            return stop.outcome;
        }
        TokenUsage usage = calls.usage();
        // 4. Redact, leave out what repeats a rejected note, then store the memory or the absence of one.
        Stage1Result result = extracted.map(r -> Stage1Reply.redact(r, deps.redactor()))
                .map(r -> RejectedNoteLines.drop(deps.approvals(), threadId, r)).orElse(null);
        if (result == null || !Stage1Reply.hasOutput(result)) {
            boolean owned = record(usage, () -> deps.stage1().markStage1SucceededNoOutput(threadId,
                    claim.ownershipToken(), deps.clock().instant()));
            return owned ? new Outcome(Kind.SUCCEEDED_NO_OUTPUT, usage, Optional.empty())
                    : Outcome.failed("lost ownership of the job before storing its result", usage);
        }
        boolean awaitingApproval = deps.config().approval() == Approval.ASK;
        boolean owned = record(usage, () -> deps.stage1().markStage1Succeeded(threadId, claim.ownershipToken(),
                claim.sourceUpdatedAt(), result, deps.clock().instant(), awaitingApproval));
        if (!owned) {
            return Outcome.failed("lost ownership of the job before storing its result", usage);
        }
        stored.created(threadId, result.rawMemory(), start);
        return new Outcome(Kind.SUCCEEDED, usage, Optional.empty());
    }

    /** The rows fitted by the tiers into one request (Codex's extraction). */
    private static Stage1Result inOne(ExtractionPlan plan, RolloutContext context, ExtractionCalls calls) {
        long overhead = context.overheadBytes();
        return calls.send(bytes -> new ExtractionCalls.Built(context.input(BudgetFitter.fit(plan.rows(),
                Math.max(1, bytes - overhead)).text()), plan.rows().size()), overhead).result();
    }

    /** Each part extracted, the partial memories merged into one that says what it covers. */
    private Optional<Stage1Result> inParts(ExtractionPlan plan, RolloutContext context, ExtractionCalls calls) {
        RolloutParts.Extracted parts = new RolloutParts(plan.rows(), context).extract(calls);
        Optional<Stage1Result> merged = parts.partials().size() == 1
                ? Optional.of(parts.partials().get(0).result())
                : new PartialMerge(context).merge(parts.partials(), calls);
        LOG.info("memory stage-1 job for thread {}: {} rows read in {} parts ({} left out by the per-rollout cap), "
                        + "{} requests, {} input tokens", calls.threadId(), plan.rowCount(), parts.parts(),
                plan.rowsLeftOut(), calls.requests(), calls.inputTokensSent());
        return merged.map(r -> new Stage1Result(r.rawMemory(), r.rolloutSummary().isEmpty() ? ""
                : r.rolloutSummary() + "\n\n" + plan.coverage(parts.parts()), r.rolloutSlug()));
    }

    /** Runs a store call that completes the job; its failure becomes a {@link StoreCompletionException}. */
    private static boolean record(TokenUsage usage, BooleanSupplier completion) {
        try {
            return completion.getAsBoolean();
        } catch (RuntimeException e) {
            throw new StoreCompletionException(e, usage);
        }
    }

    /** The store failed while completing a job whose model work was done ({@code usage} spent). */
    private static final class StoreCompletionException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient TokenUsage usage;

        StoreCompletionException(RuntimeException cause, TokenUsage usage) {
            super(cause);
            this.usage = usage;
        }
    }
}
