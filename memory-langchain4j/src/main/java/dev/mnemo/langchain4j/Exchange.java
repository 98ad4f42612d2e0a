package dev.mnemo.langchain4j;

import dev.mnemo.AssistantMessage;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemorySession;
import dev.mnemo.llm.ToolSpec;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call of a service method on one conversation, from the claim to the answer: it holds the
 * conversation's {@link MemorySession.Turn} (so no other request records into it meanwhile) and
 * its engine, and knows which hook records the answer, so the answer is recorded exactly once.
 * It carries its {@link ConversationKey}, the tenant resolved when it began with the conversation
 * id: hooks reach it through {@link Exchanges} by the LangChain4j invocation it is bound to, or the
 * thread that is running it, never by the memory id alone.
 */
final class Exchange {

    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);

    /** Who opened the exchange, and so who ends it. */
    enum Owner {
        /** The service proxy {@code configure} builds: it ends the exchange when the call returns, or its stream does. */
        PROXY,
        /** The started listener, without {@code configure}: the completed or error listener ends it. */
        LISTENER,
        /** {@code visibleTokens} on a stream whose call no listener saw: the stream ends it. */
        STREAM,
        /** A hook used alone, without listeners or {@code configure}: one hook call, no claim. */
        HOOK
    }

    private final ConversationKey key;
    private final Conversations.Opened opened;
    private final MemorySession.Turn turn;
    private final Owner owner;
    private final Runnable unregister;
    private final Receipts receipts;
    private volatile MemoryReceipt receipt;
    private final AtomicReference<UUID> invocation = new AtomicReference<>();
    private final AtomicBoolean answered = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile boolean streamed;

    Exchange(ConversationKey key, Conversations.Opened opened, MemorySession.Turn turn, Owner owner,
            Runnable unregister, Receipts receipts) {
        this.key = key;
        this.opened = opened;
        this.turn = turn;
        this.owner = owner;
        this.unregister = unregister;
        this.receipts = receipts;
    }

    ConversationKey key() {
        return key;
    }

    String conversationId() {
        return key.conversationId();
    }

    /** The LangChain4j invocation this exchange is bound to; null until the started listener binds it. */
    UUID invocation() {
        return invocation.get();
    }

    Owner owner() {
        return owner;
    }

    /** Whether the call has memory: false when it has no tenant. */
    boolean hasMemory() {
        return opened.session() != null;
    }

    /**
     * Ties the exchange to LangChain4j's invocation on first sight.
     *
     * @return false when it belongs to another invocation
     */
    boolean bind(UUID invocationId) {
        return invocationId == null || invocation.compareAndSet(null, invocationId)
                || invocationId.equals(invocation.get());
    }

    /**
     * Whether events of this invocation belong here. The started listener binds a proxy's or
     * listener's exchange before any other event of its call, so until then it belongs to no call
     * (a late event of the previous call on this conversation must not land in it). Exchanges no
     * listener binds (a stream's own, a hook's single call) take any.
     */
    boolean belongsTo(UUID invocationId) {
        if (invocationId == null || owner == Owner.STREAM || owner == Owner.HOOK) {
            return true;
        }
        return invocationId.equals(invocation.get());
    }

    /** A visible token stream takes the answer: the guardrail and listeners leave it alone. */
    void streamTakesAnswer() {
        streamed = true;
    }

    boolean streamed() {
        return streamed;
    }

    /** Claims the answer for one recorder; false when another already took it. */
    boolean takeAnswer() {
        return answered.compareAndSet(false, true);
    }

    String instructions() {
        return hasMemory() && !ended.get() ? opened.session().developerInstructions() : "";
    }

    List<ToolSpec> toolSpecs() {
        return hasMemory() ? opened.session().toolSpecs() : List.of();
    }

    String callTool(String callId, String name, String argumentsJson) {
        if (!hasMemory()) {
            return "{\"error\":\"memory is off for this call: it has no tenant\"}";
        }
        return opened.session().callTool(callId, name, argumentsJson); // core takes this machine's paths out
    }

    void userMessage(String text) {
        if (hasMemory()) {
            whileOpen(() -> opened.session().userMessage(text));
        }
    }

    /**
     * Records the answer (its visible text) and counts its citations; the session's receipt of it
     * becomes this exchange's {@link #receipt()} and its conversation's newest.
     *
     * @return the visible answer; empty when the call has no memory or the exchange was ended
     */
    Optional<AssistantMessage> assistantMessage(String rawText) {
        if (!hasMemory()) {
            return Optional.empty();
        }
        AssistantMessage[] shown = new AssistantMessage[1];
        whileOpen(() -> shown[0] = opened.session().assistantMessage(rawText));
        if (shown[0] != null) {
            receipt = shown[0].receipt();
            receipts.put(key, receipt);
        }
        return Optional.ofNullable(shown[0]);
    }

    /** The receipt of the answer this exchange recorded; empty until it recorded one. */
    Optional<MemoryReceipt> receipt() {
        return Optional.ofNullable(receipt);
    }

    /**
     * Ends the exchange: the conversation takes the next one and its engine may close again.
     * Idempotent; every path of a call ends up here once.
     */
    void end() {
        end(() -> {});
    }

    /**
     * Ends the exchange, running {@code beforeRelease} after it is unregistered and before the claim
     * is released, so no other call can claim the conversation in between.
     */
    void end(Runnable beforeRelease) {
        if (!ended.compareAndSet(false, true)) {
            beforeRelease.run();
            return;
        }
        unregister.run();
        try {
            beforeRelease.run();
        } finally {
            try {
                if (turn != null) {
                    turn.close();
                }
            } finally {
                opened.close();
            }
        }
    }

    boolean ended() {
        return ended.get();
    }

    /**
     * Runs a recording step, unless {@code endConversation} closed the conversation under this
     * exchange: then the step is dropped (the conversation is over), not failed.
     */
    private void whileOpen(Runnable step) {
        if (ended.get()) {
            LOG.debug("{} was ended during its call; not recording the rest", key);
            return;
        }
        try {
            step.run();
        } catch (IllegalStateException e) {
            if (!ended.get()) {
                throw e;
            }
            LOG.debug("{} was ended during its call; not recording the rest", key);
        }
    }
}
