package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialThinkingContext;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.PartialToolCallContext;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.tool.BeforeToolExecution;
import dev.langchain4j.service.tool.ToolExecution;
import dev.mnemo.AssistantMessage;
import dev.mnemo.CitationStreamFilter;
import dev.mnemo.ConversationBusyException;
import dev.mnemo.Citations;
import java.lang.ref.Cleaner;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A {@link TokenStream} whose partial responses are the visible text only: every text token of
 * the call goes through Mnemo's citation stream filter, which holds back citation markup however
 * the chunks split it; text held back at the end is shown before the stream completes. The
 * complete response carries the visible text and, when the answer was recorded, the turn's receipt
 * among its message's attributes. The stream ends its exchange: on completion the
 * answer is recorded and its citations counted once; on an error what was shown is recorded at
 * once, counting nothing, so the conversation's next call follows it in the rollout. Handlers for
 * everything else pass straight through to the wrapped stream.
 *
 * <p>A stream {@code configure}'s service proxy returns holds its conversation's claim from the
 * call on; if it is dropped without {@link #start()}, the claim is released when the stream is
 * garbage collected (a started stream stays reachable from LangChain4j's handlers until it ends).
 */
final class VisibleTokenStream implements TokenStream {

    /** Releases the claims of streams dropped unstarted; one daemon thread for the JVM, idle otherwise. */
    private static final Cleaner UNSTARTED = Cleaner.create();

    private final TokenStream delegate;
    private final Object memoryId;
    private final Exchanges exchanges;
    /** The proxy's exchange, from the call on; null for {@code visibleTokens}, which finds one at start. */
    private Exchange exchange;
    private final Cleaner.Cleanable releaseIfDropped;

    private Consumer<String> partialHandler;
    private BiConsumer<PartialResponse, PartialResponseContext> partialWithContextHandler;
    private Consumer<ChatResponse> completeHandler;
    private Consumer<Throwable> errorHandler;
    private boolean ignoreErrors;

    private final CitationStreamFilter filter = Citations.streamFilter();
    private final StringBuilder raw = new StringBuilder();
    private final StringBuilder shown = new StringBuilder();
    private PartialResponseContext lastContext;
    /** Completed or failed: later callbacks are ignored (a client may report an error, then the end of its stream). */
    private boolean over;

    /** For {@code visibleTokens}: the exchange of {@code memoryId} is found (or opened) at {@link #start()}. */
    VisibleTokenStream(TokenStream delegate, Object memoryId, Exchanges exchanges) {
        this.delegate = delegate;
        this.memoryId = memoryId;
        this.exchanges = exchanges;
        this.releaseIfDropped = null;
    }

    /** For the service proxy: the stream of the call that opened {@code exchange}, which it now ends. */
    VisibleTokenStream(TokenStream delegate, Exchange exchange, Exchanges exchanges) {
        this.delegate = delegate;
        this.memoryId = null;
        this.exchanges = exchanges;
        this.exchange = exchange;
        exchange.streamTakesAnswer();
        this.releaseIfDropped = UNSTARTED.register(this, exchange::end);
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

    /**
     * Starts the call's model stream.
     *
     * @throws ConversationBusyException for {@code visibleTokens} on a conversation another
     *     call holds, before anything is recorded
     */
    @Override
    public void start() {
        if (partialHandler != null && partialWithContextHandler != null) {
            throw new IllegalStateException("set onPartialResponse or onPartialResponseWithContext, not both");
        }
        if ((errorHandler == null) == !ignoreErrors) {
            throw new IllegalStateException("set exactly one of onError(...) and ignoreErrors(), as LangChain4j requires");
        }
        if (exchange == null) {
            // The exchange the listeners opened for this call, else one of its own (no listener saw the call).
            Exchange found = exchanges.forStream(memoryId).orElse(null);
            if (found != null && found.streamed()) {
                throw new ConversationBusyException(found.conversationId()); // another stream is answering
            }
            exchange = found != null ? found : exchanges.begin(memoryId, Exchange.Owner.STREAM);
            exchange.streamTakesAnswer();
        }
        // Method references: LangChain4j's handlers keep this stream reachable until it ends.
        if (partialWithContextHandler != null) {
            delegate.onPartialResponseWithContext(this::partial);
        } else {
            delegate.onPartialResponse(this::partial);
        }
        delegate.onCompleteResponse(this::completed);
        delegate.onError(this::failed);
        try (Exchanges.Scope here = exchanges.enter(exchange)) {
            delegate.start(); // the first request is transformed here, on this thread
        } catch (RuntimeException e) {
            failed(e, false);
            throw e;
        }
    }

    private void partial(String text) {
        partial(new PartialResponse(text), null);
    }

    private synchronized void partial(PartialResponse partial, PartialResponseContext context) {
        if (over) {
            return;
        }
        if (context != null) {
            lastContext = context;
        }
        raw.append(partial.text());
        show(filter.push(partial.text()));
    }

    private void completed(ChatResponse response) {
        String visible;
        AssistantMessage recorded;
        try {
            synchronized (this) {
                if (over) {
                    return;
                }
                over = true;
                show(filter.finish()); // a dangling "<" or "<oai-mem" that never became a citation: the user's text
                recorded = exchange.assistantMessage(raw.toString()).orElse(null);
                visible = recorded != null ? recorded.visibleText() : shown.toString();
            }
        } catch (RuntimeException e) {
            end(); // the answer could not be recorded: the application hears of it, and the conversation is free
            if (errorHandler != null) {
                errorHandler.accept(e);
            }
            return;
        }
        end();
        if (completeHandler != null) {
            AiMessage message = response.aiMessage().withText(visible);
            completeHandler.accept(response.toBuilder()
                    .aiMessage(recorded == null ? message : Receipts.attach(message, recorded.receipt())).build());
        }
    }

    private void failed(Throwable error) {
        failed(error, true);
    }

    private void failed(Throwable error, boolean notify) {
        try {
            synchronized (this) {
                if (over) {
                    return;
                }
                over = true;
                if (!exchange.ended() && shown.length() > 0) {
                    exchange.assistantMessage(shown.toString()); // what the user saw; it has no markup to count
                }
            }
        } finally {
            end();
        }
        if (notify && errorHandler != null) {
            errorHandler.accept(error);
        }
    }

    private void end() {
        exchange.end();
        if (releaseIfDropped != null) {
            releaseIfDropped.clean();
        }
    }

    /** Passes visible text to the application's handler. */
    private void show(String visible) {
        if (visible.isEmpty()) {
            return;
        }
        shown.append(visible);
        if (partialWithContextHandler != null) {
            partialWithContextHandler.accept(new PartialResponse(visible), context());
        } else if (partialHandler != null) {
            partialHandler.accept(visible);
        }
    }

    /** The context of the latest partial response; for text shown at completion, one that cannot cancel. */
    private PartialResponseContext context() {
        return lastContext != null ? lastContext : new PartialResponseContext(new StreamingHandle() {
            @Override
            public void cancel() {}

            @Override
            public boolean isCancelled() {
                return false;
            }
        });
    }
}
