package dev.mnemo.internal.extract;

import dev.mnemo.llm.ContextOverflow;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.TokenCounter;

/**
 * How large one extraction request of one job may be, and what the job learnt about it. The
 * budget starts at {@link Phase1Request#budgetBytes} (70 % of the window at 4 bytes a token) and
 * shrinks, for the rest of the job, by what the model's own counter measures
 * ({@link #measured(long)}) and by what a context-window error says ({@link #shrink}). Not
 * thread-safe: one per job.
 */
final class ExtractionBudget {

    /** Context-window errors a job recovers from by resending smaller before it gives up. */
    static final int MAX_SHRINKS = 4;
    /** Rounds of measuring and refitting one request before it is sent as it is. */
    static final int MAX_MEASURE_ROUNDS = 3;
    /** Below this many bytes of conversation per request, a request cannot usefully shrink further. */
    static final long MIN_ROOM_BYTES = 1_024;
    /** Kept under the measured ratio so a refit lands below the budget rather than on it. */
    private static final double MEASURE_MARGIN = 0.97;

    private final long windowBytes;
    private final long tokenBudget;
    private final TokenCounter counter;
    private double correction = 1.0;
    private int shrinks;

    private ExtractionBudget(long windowBytes, TokenCounter counter) {
        this.windowBytes = windowBytes;
        this.tokenBudget = TokenCounter.tokensOfBytes(windowBytes);
        this.counter = counter;
    }

    /** The budget of {@code model}'s requests, counted with its {@link LanguageModel#tokenCounter()}. */
    static ExtractionBudget of(LanguageModel model) {
        TokenCounter counter = model.tokenCounter();
        return new ExtractionBudget(Phase1Request.budgetBytes(model),
                counter == null ? TokenCounter.estimate() : counter);
    }

    /** The most UTF-8 bytes instructions and messages of one request may take now. */
    long requestBytes() {
        return Math.max(1, (long) (windowBytes * correction));
    }

    /** One request's input tokens may not exceed this: 70 % of the window (or Codex's default). */
    long tokenBudget() {
        return tokenBudget;
    }

    /** The tokens of a request's instructions and first message, as the model counts them. */
    long count(String instructions, String input) {
        return counter.count(instructions + "\n" + input);
    }

    /** Whether {@code tokens}, as {@link #count} measured them, fit one request. */
    boolean fits(long tokens) {
        return tokens <= tokenBudget;
    }

    /** A request measured {@code tokens}, over the budget: later ones are made smaller by that ratio. */
    void measured(long tokens) {
        if (tokens > tokenBudget) {
            correction *= MEASURE_MARGIN * tokenBudget / tokens;
        }
    }

    /**
     * The model rejected a request as larger than its window: later ones are made smaller by the
     * factor the error gives ({@link ContextOverflow#shrinkFactor()}, half when it names no sizes).
     *
     * @param roomAtLeast bytes the request needs besides the conversation (instructions, templates)
     * @return false when the job has shrunk {@value #MAX_SHRINKS} times already, or the conversation
     *     would have less than {@value #MIN_ROOM_BYTES} bytes: nothing smaller is worth sending
     */
    boolean shrink(ContextOverflow overflow, long roomAtLeast) {
        if (shrinks >= MAX_SHRINKS) {
            return false;
        }
        double next = correction * overflow.shrinkFactor();
        if ((long) (windowBytes * next) - roomAtLeast < MIN_ROOM_BYTES) {
            return false;
        }
        shrinks++;
        correction = next;
        return true;
    }

    /** Context-window errors recovered from so far. */
    int shrinks() {
        return shrinks;
    }
}
