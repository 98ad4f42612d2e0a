package dev.mnemo.langchain4j;

import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialThinkingContext;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.PartialToolCallContext;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.tool.BeforeToolExecution;
import dev.langchain4j.service.tool.ToolExecution;
import dev.mnemo.AnswerStream;
import dev.mnemo.AssistantMessage;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A {@link TokenStream} whose partial responses are the visible text only: every text token of
 * the call goes through the conversation's {@link AnswerStream}, which holds back citation markup
 * however the chunks split it. The complete response carries the visible text; it is recorded and
 * its citations counted when the stream completes. Handlers for everything else pass straight
 * through to the wrapped stream.
 */
final class VisibleTokenStream implements TokenStream {

    private final TokenStream delegate;
    private final Object memoryId;
    private final Conversations conversations;
    private final Turns turns;

    private Consumer<String> partialHandler;
    private BiConsumer<PartialResponse, PartialResponseContext> partialWithContextHandler;
    private Consumer<ChatResponse> completeHandler;
    private Consumer<Throwable> errorHandler;
    private boolean ignoreErrors;

    VisibleTokenStream(TokenStream delegate, Object memoryId, Conversations conversations, Turns turns) {
        this.delegate = delegate;
        this.memoryId = memoryId;
        this.conversations = conversations;
        this.turns = turns;
    }

    @Override
    public TokenStream onPartialResponse(Consumer<String> handler) {
        this.partialHandler = handler;
        return this;
    }

    @Override
    public TokenStream onPartialResponseWithContext(BiConsumer<PartialResponse, PartialResponseContext> handler) {
        this.partialWithContextHandler = handler;
        return this;
    }

    @Override
    public TokenStream onPartialThinking(Consumer<PartialThinking> handler) {
        delegate.onPartialThinking(handler);
        return this;
    }

    @Override
    public TokenStream onPartialThinkingWithContext(BiConsumer<PartialThinking, PartialThinkingContext> handler) {
        delegate.onPartialThinkingWithContext(handler);
        return this;
    }

    @Override
    public TokenStream onPartialToolCall(Consumer<PartialToolCall> handler) {
        delegate.onPartialToolCall(handler);
        return this;
    }

    @Override
    public TokenStream onPartialToolCallWithContext(BiConsumer<PartialToolCall, PartialToolCallContext> handler) {
        delegate.onPartialToolCallWithContext(handler);
        return this;
    }

    @Override
    public TokenStream onRetrieved(Consumer<List<Content>> handler) {
        delegate.onRetrieved(handler);
        return this;
    }

    @Override
    public TokenStream onIntermediateResponse(Consumer<ChatResponse> handler) {
        delegate.onIntermediateResponse(handler);
        return this;
    }

    @Override
    public TokenStream beforeToolExecution(Consumer<BeforeToolExecution> handler) {
        delegate.beforeToolExecution(handler);
        return this;
    }

    @Override
    public TokenStream onToolExecuted(Consumer<ToolExecution> handler) {
        delegate.onToolExecuted(handler);
        return this;
    }

    /** LangChain4j 1.16+; an extra, never-called method on older lines. */
    @Override
    public TokenStream onUnmappedRawEvent(Consumer<Object> handler) {
        delegate.onUnmappedRawEvent(handler);
        return this;
    }

    @Override
    public TokenStream onCompleteResponse(Consumer<ChatResponse> handler) {
        this.completeHandler = handler;
        return this;
    }

    @Override
    public TokenStream onError(Consumer<Throwable> handler) {
        this.errorHandler = handler;
        return this;
    }

    @Override
    public TokenStream ignoreErrors() {
        this.ignoreErrors = true;
        return this;
    }

    @Override
    public void start() {
        if (partialHandler != null && partialWithContextHandler != null) {
            throw new IllegalStateException("set onPartialResponse or onPartialResponseWithContext, not both");
        }
        if ((errorHandler == null) == !ignoreErrors) {
            throw new IllegalStateException("set exactly one of onError(...) and ignoreErrors(), as LangChain4j requires");
        }
        AnswerStream answer = conversations.of(memoryId).streamAnswer();
        turns.startVisibleStream(memoryId, answer);
        if (partialWithContextHandler != null) {
            delegate.onPartialResponseWithContext((partial, context) -> {
                String visible = answer.push(partial.text());
                if (!visible.isEmpty()) {
                    partialWithContextHandler.accept(new PartialResponse(visible), context);
                }
            });
        } else {
            delegate.onPartialResponse(partial -> {
                String visible = answer.push(partial);
                if (!visible.isEmpty() && partialHandler != null) {
                    partialHandler.accept(visible);
                }
            });
        }
        delegate.onCompleteResponse(response -> {
            AssistantMessage shown;
            try {
                shown = answer.finish();
            } finally {
                turns.endVisibleStream(memoryId, answer);
            }
            if (completeHandler != null) {
                completeHandler.accept(response.toBuilder()
                        .aiMessage(response.aiMessage().withText(shown.visibleText())).build());
            }
        });
        delegate.onError(error -> {
            // Left unfinished: the session records what was shown when it closes, and counts nothing.
            turns.endVisibleStream(memoryId, answer);
            if (errorHandler != null) {
                errorHandler.accept(error);
            }
        });
        try {
            delegate.start();
        } catch (RuntimeException e) {
            turns.endVisibleStream(memoryId, answer);
            throw e;
        }
    }
}
