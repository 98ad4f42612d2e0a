package dev.mnemo.internal.extract;

import dev.mnemo.Approval;
import dev.mnemo.ModelFailure;
import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import dev.mnemo.ThreadGoal;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Phase 1 job: render the claimed rollout, ask the model once (plus one retry when the reply
 * does not parse), redact, and complete the job in the store with the claim's ownership token.
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

    private final Phase1Runner.Dependencies deps;
    private final String model;
    private final BooleanSupplier aborted;

    /**
     * @param aborted true once the run is being cancelled: a job failing then is not marked failed
     *     (no backoff for a failure that is not the rollout's fault); the engine releases it instead
     */
    Phase1Job(Phase1Runner.Dependencies deps, BooleanSupplier aborted) {
        this.deps = deps;
        this.model = deps.config().extractModel().orElse("");
        this.aborted = aborted;
    }

    Outcome run(Stage1Claim claim) {
        String threadId = claim.thread().id();
        Outcome outcome;
        try {
            outcome = extract(claim);
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

    private Outcome extract(Stage1Claim claim) {
        // 1. Render the rollout within the model's budget.
        long budget = budgetBytes();
        Path rolloutPath = claim.thread().rolloutPath();
        String rolloutForModel = deps.input().pathForModel(claim.thread());
        String cwd = claim.thread().cwd().map(Path::toString).orElse("");
        String goal = GoalContext.describe(goalOf(claim.thread().id()), deps.redactor());
        long overhead = Phase1Request.overheadBytes(rolloutForModel, cwd, goal);
        String rendered;
        try {
            rendered = deps.input().render(claim.thread(), Math.max(1, budget - overhead)).text();
        } catch (IOException e) {
            return Outcome.failed("cannot read rollout " + rolloutPath + ": " + e.getMessage(), TokenUsage.ZERO);
        }
        String input = Phase1Prompts.input(rolloutForModel, cwd, goal, rendered);
        if (Utf8Text.size(input) + Phase1Prompts.SYSTEM_BYTES > budget) {
            return Outcome.failed("rendered rollout exceeds the input budget of " + budget + " bytes", TokenUsage.ZERO);
        }
        // 2. Ask the model; one retry when the reply does not match the schema.
        List<ModelMessage> conversation = new ArrayList<>(List.of(ModelMessage.user(input)));
        TokenUsage usage = TokenUsage.ZERO;
        Stage1Result result = null;
        String problem = null;
        for (int attempt = 1; attempt <= 2 && result == null; attempt++) {
            ModelResponse response;
            try {
                response = deps.model().respond(request(conversation));
            } catch (ModelException e) {
                return Phase1Runner.MODEL_FAILURE_REASONS.contains(e.reason())
                        ? Outcome.modelFailed(new ModelFailure(e.reason(), String.valueOf(e.getMessage()),
                                deps.clock().instant()), usage)
                        : Outcome.failed("model error (" + e.reason() + "): " + e.getMessage(), usage);
            }
            usage = usage.plus(response.usage());
            try {
                result = Stage1Reply.parse(response.text());
            } catch (Stage1Reply.InvalidReplyException e) {
                problem = e.getMessage();
                LOG.debug("memory stage-1 reply for thread {} rejected (attempt {}): {}", claim.thread().id(), attempt,
                        problem);
                conversation.add(ModelMessage.assistant(echo(response.text())));
                conversation.add(ModelMessage.user(Phase1Prompts.retry(problem)));
            }
        }
        if (result == null) {
            return Outcome.failed("invalid model reply: " + problem, usage);
        }
        // 3. Redact, leave out what repeats a rejected note, then store the memory or the absence of one.
        result = Stage1Reply.redact(result, deps.redactor());
        String threadId = claim.thread().id();
        result = RejectedNoteLines.drop(deps.approvals(), threadId, result);
        Stage1Result stored = result;
        if (!Stage1Reply.hasOutput(result)) {
            boolean owned = record(usage, () -> deps.stage1().markStage1SucceededNoOutput(threadId,
                    claim.ownershipToken(), deps.clock().instant()));
            return owned ? new Outcome(Kind.SUCCEEDED_NO_OUTPUT, usage, Optional.empty())
                    : Outcome.failed("lost ownership of the job before storing its result", usage);
        }
        boolean awaitingApproval = deps.config().approval() == Approval.ASK;
        boolean owned = record(usage, () -> deps.stage1().markStage1Succeeded(threadId, claim.ownershipToken(),
                claim.sourceUpdatedAt(), stored, deps.clock().instant(), awaitingApproval));
        return owned ? new Outcome(Kind.SUCCEEDED, usage, Optional.empty())
                : Outcome.failed("lost ownership of the job before storing its result", usage);
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

    private ModelRequest request(List<ModelMessage> conversation) {
        return Phase1Request.of(model, conversation);
    }

    private long budgetBytes() {
        return Phase1Request.budgetBytes(deps.model());
    }

    /** The rejected reply as it goes back to the model: long replies are cut, they only show the mistake. */
    private static String echo(String reply) {
        return reply.length() <= MAX_ECHOED_REPLY_CHARS ? reply
                : reply.substring(0, MAX_ECHOED_REPLY_CHARS) + "\n[… reply cut …]";
    }

    private static final int MAX_ECHOED_REPLY_CHARS = 4_000;
}
