package dev.mnemo.llm;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a {@link ModelException.Reason#CONTEXT_WINDOW_EXCEEDED} failure says about the sizes
 * involved: the model's window and the tokens the request came to, when the provider's message
 * names them. A caller uses it to learn how far its own count was off and to resend a smaller
 * request ({@link #shrinkFactor()}).
 *
 * <p>The message forms read are those of OpenAI and servers that copy it (vLLM, LiteLLM: "maximum
 * context length is N tokens … resulted in / requested M tokens"), llama.cpp ("request (M tokens)
 * exceeds the available context size (N tokens)") and Anthropic ("prompt is too long: M tokens &gt;
 * N maximum"). Any other message gives an overflow with neither figure, and the factor halves.
 *
 * @param windowTokens the model's context window, when the message names it
 * @param requestTokens the tokens the rejected request came to, when the message names them
 */
public record ContextOverflow(OptionalLong windowTokens, OptionalLong requestTokens) {

    /** The factor used when the message names no sizes. */
    public static final double DEFAULT_SHRINK_FACTOR = 0.5;
    /** Kept below the window's exact share, so the resent request is not rejected again by a rounding. */
    private static final double SAFETY = 0.9;

    private static final Pattern OPENAI_WINDOW = Pattern.compile("maximum context length is (\\d[\\d,]*) tokens");
    private static final Pattern OPENAI_REQUEST =
            Pattern.compile("(?:resulted in|requested|you have) (\\d[\\d,]*) tokens");
    private static final Pattern LLAMA_CPP = Pattern.compile(
            "request \\((\\d[\\d,]*) tokens\\) exceeds the available context size \\((\\d[\\d,]*) tokens\\)");
    private static final Pattern ANTHROPIC = Pattern.compile("(\\d[\\d,]*) tokens > (\\d[\\d,]*) maximum");

    /**
     * Checks the components.
     *
     * @param windowTokens the model's context window, when the message names it
     * @param requestTokens the tokens the rejected request came to, when the message names them
     */
    public ContextOverflow {
        Objects.requireNonNull(windowTokens, "windowTokens");
        Objects.requireNonNull(requestTokens, "requestTokens");
    }

    /**
     * The sizes named by {@code failure}'s message; empty when it is not a context-window failure.
     *
     * @param failure a model failure
     * @return its sizes, or empty when it is not a context-window failure
     */
    public static Optional<ContextOverflow> of(ModelException failure) {
        if (failure.reason() != ModelException.Reason.CONTEXT_WINDOW_EXCEEDED) {
            return Optional.empty();
        }
        return Optional.of(parse(String.valueOf(failure.getMessage())));
    }

    /**
     * The sizes a provider's error message names; an overflow with neither when it names none.
     *
     * @param message the error message
     * @return the sizes it names
     */
    public static ContextOverflow parse(String message) {
        Matcher llama = LLAMA_CPP.matcher(message);
        if (llama.find()) {
            return new ContextOverflow(number(llama.group(2)), number(llama.group(1)));
        }
        Matcher anthropic = ANTHROPIC.matcher(message);
        if (anthropic.find()) {
            return new ContextOverflow(number(anthropic.group(2)), number(anthropic.group(1)));
        }
        Matcher window = OPENAI_WINDOW.matcher(message);
        Matcher request = OPENAI_REQUEST.matcher(message);
        return new ContextOverflow(window.find() ? number(window.group(1)) : OptionalLong.empty(),
                request.find() ? number(request.group(1)) : OptionalLong.empty());
    }

    /**
     * How much smaller the next request should be, in (0, 1): nine tenths of window / request when
     * both are known and the request was larger, else {@value #DEFAULT_SHRINK_FACTOR}.
     *
     * @return the factor to multiply the request's size by
     */
    public double shrinkFactor() {
        if (windowTokens.isPresent() && requestTokens.isPresent() && requestTokens.getAsLong() > windowTokens.getAsLong()
                && windowTokens.getAsLong() > 0) {
            return SAFETY * windowTokens.getAsLong() / requestTokens.getAsLong();
        }
        return DEFAULT_SHRINK_FACTOR;
    }

    private static OptionalLong number(String digits) {
        try {
            return OptionalLong.of(Long.parseLong(digits.replace(",", "")));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
