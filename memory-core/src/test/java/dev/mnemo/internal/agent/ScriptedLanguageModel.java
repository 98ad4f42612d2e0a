package dev.mnemo.internal.agent;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link LanguageModel} that plays back a script: each call takes the next scripted turn (a
 * response, or a function of the request that may also advance a clock or throw) and records the
 * request it was given. Running past the end of the script fails the test.
 */
final class ScriptedLanguageModel implements LanguageModel {

    private final Deque<Function<ModelRequest, ModelResponse>> turns = new ArrayDeque<>();
    private final List<ModelRequest> requests = new ArrayList<>();

    ScriptedLanguageModel then(ModelResponse response) {
        turns.add(request -> response);
        return this;
    }

    ScriptedLanguageModel then(Function<ModelRequest, ModelResponse> turn) {
        turns.add(turn);
        return this;
    }

    /** A turn that calls the given tools. */
    ScriptedLanguageModel thenCalls(TokenUsage usage, ToolCall... calls) {
        return then(ModelResponse.ofToolCalls(List.of(calls), usage));
    }

    /** A final text answer with no tool calls. */
    ScriptedLanguageModel thenAnswers(String text, TokenUsage usage) {
        return then(ModelResponse.ofText(text, usage));
    }

    @Override
    public synchronized ModelResponse respond(ModelRequest request) {
        requests.add(request);
        Function<ModelRequest, ModelResponse> turn = turns.poll();
        if (turn == null) {
            throw new AssertionError("the agent asked for turn " + requests.size() + " but the script has ended");
        }
        return turn.apply(request);
    }

    synchronized List<ModelRequest> requests() {
        return List.copyOf(requests);
    }

    synchronized int remainingTurns() {
        return turns.size();
    }
}
