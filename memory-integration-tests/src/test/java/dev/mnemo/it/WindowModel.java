package dev.mnemo.it;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.testkit.ScriptedLanguageModel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scripted extraction model that behaves like one with a small window: its tokenizer counts
 * {@code tokensPerEstimate} times Codex's 4-byte estimate, a request larger than its window is
 * rejected with {@code CONTEXT_WINDOW_EXCEEDED} (OpenAI's message, or one naming no sizes), and its
 * reply lists the {@code FACT-nnnn} markers it sees in the request (a merge's input holds the
 * partial memories, so a merge unions their facts). It is not a model and knows nothing else.
 */
final class WindowModel implements LanguageModel {

    static final Pattern FACT = Pattern.compile("FACT-\\d{4}");

    private final int windowTokens;
    private final double tokensPerEstimate;
    private final boolean honestCounter;
    volatile boolean errorNamesSizes = true;
    /** Requests (1-based, counting every one sent) that fail with a server error instead of an answer. */
    volatile IntPredicate serverErrorAt = n -> false;
    private final List<Integer> requestTokens = new ArrayList<>();
    private final List<String> inputs = new ArrayList<>();
    private int overflows;
    private long reportedInputTokens;

    /**
     * @param honestCounter whether {@link #tokenCounter()} counts as the model does; else it is the 4-byte estimate
     */
    WindowModel(int windowTokens, double tokensPerEstimate, boolean honestCounter) {
        this.windowTokens = windowTokens;
        this.tokensPerEstimate = tokensPerEstimate;
        this.honestCounter = honestCounter;
    }

    @Override
    public synchronized ModelResponse respond(ModelRequest request) {
        StringBuilder all = new StringBuilder(request.instructions());
        for (ModelMessage message : request.messages()) {
            all.append('\n').append(message.text());
        }
        int tokens = count(all.toString());
        requestTokens.add(tokens);
        inputs.add(request.messages().get(0).text());
        if (serverErrorAt.test(requestTokens.size())) {
            throw new ModelException(ModelException.Reason.SERVER, "HTTP 503: the server is overloaded");
        }
        if (tokens > windowTokens) {
            overflows++;
            throw new ModelException(ModelException.Reason.CONTEXT_WINDOW_EXCEEDED, errorNamesSizes
                    ? "This model's maximum context length is " + windowTokens + " tokens. However, your messages"
                            + " resulted in " + tokens + " tokens. Please reduce the length of the messages."
                    : "the input is too long for this model");
        }
        TreeSet<String> facts = new TreeSet<>();
        Matcher m = FACT.matcher(request.messages().get(0).text());
        while (m.find()) {
            facts.add(m.group());
        }
        reportedInputTokens += tokens;
        TokenUsage usage = new TokenUsage(tokens, 0, 50, 0);
        if (facts.isEmpty()) {
            return ModelResponse.ofText(ScriptedLanguageModel.stage1Json("", "", null), usage);
        }
        String list = String.join(", ", facts);
        return ModelResponse.ofText(ScriptedLanguageModel.stage1Json("---\ndescription: facts\nkeywords: facts\n---\n- "
                + list, "# Facts seen\n" + list, "facts"), usage);
    }

    @Override
    public OptionalInt contextWindowTokens() {
        return OptionalInt.of(windowTokens);
    }

    @Override
    public TokenCounter tokenCounter() {
        return honestCounter ? this::count : TokenCounter.estimate();
    }

    private int count(String text) {
        return (int) Math.ceil(text.getBytes(StandardCharsets.UTF_8).length / 4.0 * tokensPerEstimate);
    }

    synchronized List<Integer> requestTokens() {
        return List.copyOf(requestTokens);
    }

    synchronized List<String> inputs() {
        return List.copyOf(inputs);
    }

    synchronized int overflows() {
        return overflows;
    }

    /** Input tokens of the answered requests, as their usage reported them. */
    synchronized long reportedInputTokens() {
        return reportedInputTokens;
    }

    /** The largest request, in the model's own tokens, that it answered. */
    synchronized int largestAnswered() {
        return requestTokens.stream().filter(t -> t <= windowTokens).mapToInt(Integer::intValue).max().orElse(0);
    }
}
