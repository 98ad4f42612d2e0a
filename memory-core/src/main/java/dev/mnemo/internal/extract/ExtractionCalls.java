package dev.mnemo.internal.extract;

import dev.mnemo.ModelFailure;
import dev.mnemo.llm.ContextOverflow;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.Stage1Result;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extraction requests of one job, each within the job's {@link ExtractionBudget}: a request
 * is built for the budget, measured with the model's counter and rebuilt smaller while it is
 * over; a reply that does not parse gets one re-ask; a context-window error shrinks the budget and
 * the request is built and sent again, spending no retry. Every reply's usage is summed. Not
 * thread-safe: one per job.
 */
final class ExtractionCalls {

    private static final Logger LOG = LoggerFactory.getLogger(ExtractionCalls.class);
    private static final int MAX_ECHOED_REPLY_CHARS = 4_000;
    private static final long MIN_ECHO_BYTES = 256;

    /** A request's first message built for a budget, and how many of the caller's items it holds. */
    record Built(String input, int taken) {}

    /** Builds a request's first message within {@code requestBytes} (instructions included). */
    @FunctionalInterface
    interface Builder {
        Built build(long requestBytes);
    }

    /** A parsed reply and how many of the caller's items its request held. */
    record Reply(Stage1Result result, int taken) {}

    /** The job ends with {@code outcome}: the model failed, or a request could not be made to fit. */
    static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Phase1Job.Outcome outcome;

        Stop(Phase1Job.Outcome outcome) {
            super(outcome.error().orElse("stopped"), null, false, false);
            this.outcome = outcome;
        }
    }

    private final LanguageModel model;
    private final String modelName;
    private final Clock clock;
    private final String threadId;
    final ExtractionBudget budget;
    private TokenUsage usage = TokenUsage.ZERO;
    private long inputTokensSent;
    private int requests;

    ExtractionCalls(LanguageModel model, String modelName, Clock clock, String threadId) {
        this.model = model;
        this.modelName = modelName;
        this.clock = clock;
        this.threadId = threadId;
        this.budget = ExtractionBudget.of(model);
    }

    /** The thread whose rollout these requests extract. */
    String threadId() {
        return threadId;
    }

    /** What every reply so far reported spending. */
    TokenUsage usage() {
        return usage;
    }

    /** Input tokens of the requests sent so far, as the model's counter measured them. */
    long inputTokensSent() {
        return inputTokensSent;
    }

    /** Requests sent so far, re-asks and rejected ones included. */
    int requests() {
        return requests;
    }

    /**
     * Builds, measures and sends one request, resending it smaller after a context-window error.
     *
     * @param overheadBytes what the request takes besides its items, to tell when it cannot shrink
     * @throws Stop when the model fails, its reply never parses, or nothing small enough is left to send
     */
    Reply send(Builder builder, long overheadBytes) {
        while (true) {
            Built built = measuredFit(builder);
            try {
                return new Reply(ask(built.input()), built.taken());
            } catch (ModelException e) {
                if (e.reason() != ModelException.Reason.CONTEXT_WINDOW_EXCEEDED) {
                    throw new Stop(failure(e));
                }
                ContextOverflow overflow = ContextOverflow.of(e).orElseThrow();
                long before = budget.requestBytes();
                if (!budget.shrink(overflow, overheadBytes)) {
                    throw new Stop(Phase1Job.Outcome.failed("the request does not fit the model's context window even"
                            + " after " + budget.shrinks() + " shrinks to " + before + " bytes (" + e.getMessage() + ")",
                            usage));
                }
                LOG.info("memory stage-1 job for thread {}: the model's context window rejected a request of {} bytes;"
                        + " resending within {} bytes", threadId, before, budget.requestBytes());
            }
        }
    }

    /** The request built for the budget, rebuilt smaller (a few rounds at most) while the model's counter finds it over. */
    private Built measuredFit(Builder builder) {
        Built built = builder.build(budget.requestBytes());
        for (int round = 0; round < ExtractionBudget.MAX_MEASURE_ROUNDS; round++) {
            long tokens = budget.count(Phase1Prompts.SYSTEM, built.input());
            if (budget.fits(tokens)) {
                return built;
            }
            budget.measured(tokens);
            LOG.debug("memory stage-1 job for thread {}: request measured {} tokens, over the budget of {}; refitting"
                    + " within {} bytes", threadId, tokens, budget.tokenBudget(), budget.requestBytes());
            built = builder.build(budget.requestBytes());
        }
        return built;
    }

    /** One request and, when its reply does not parse, one re-ask. */
    private Stage1Result ask(String input) {
        List<ModelMessage> conversation = new ArrayList<>(List.of(ModelMessage.user(input)));
        inputTokensSent += budget.count(Phase1Prompts.SYSTEM, input);
        String problem = null;
        for (int attempt = 1; attempt <= 2; attempt++) {
            requests++;
            ModelResponse response = model.respond(Phase1Request.of(modelName, conversation));
            usage = usage.plus(response.usage());
            try {
                return Stage1Reply.parse(response.text());
            } catch (Stage1Reply.InvalidReplyException e) {
                problem = e.getMessage();
                LOG.debug("memory stage-1 reply for thread {} rejected (attempt {}): {}", threadId, attempt, problem);
                String retry = Phase1Prompts.retry(problem);
                long left = budget.requestBytes() - Phase1Prompts.SYSTEM_BYTES - Utf8Text.size(input) - Utf8Text.size(retry);
                conversation.add(ModelMessage.assistant(echo(response.text(), left)));
                conversation.add(ModelMessage.user(retry));
            }
        }
        throw new Stop(Phase1Job.Outcome.failed("invalid model reply: " + problem, usage));
    }

    /** A failure that is the model's keeps the job's retries; any other spends one. */
    private Phase1Job.Outcome failure(ModelException e) {
        return Phase1Runner.MODEL_FAILURE_REASONS.contains(e.reason())
                ? Phase1Job.Outcome.modelFailed(new ModelFailure(e.reason(), String.valueOf(e.getMessage()),
                        clock.instant()), usage)
                : Phase1Job.Outcome.failed("model error (" + e.reason() + "): " + e.getMessage(), usage);
    }

    /** The rejected reply as it goes back: cut to what is left of the budget, it only shows the mistake. */
    private static String echo(String reply, long leftBytes) {
        String cut = reply.length() <= MAX_ECHOED_REPLY_CHARS ? reply : reply.substring(0, MAX_ECHOED_REPLY_CHARS);
        long room = Math.max(MIN_ECHO_BYTES, leftBytes);
        if (Utf8Text.size(cut) > room) {
            cut = Utf8Text.head(cut, room);
        }
        return cut.length() == reply.length() ? reply : cut + "\n[… reply cut …]";
    }
}
