package dev.mnemo.langchain4j;

import dev.langchain4j.invocation.InvocationContext;
import dev.mnemo.ConversationBusyException;
import dev.mnemo.MemorySession;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exchanges running now, one at most per {@link ConversationKey} (the tenant resolved for the
 * call and its conversation id, never the memory id alone): what lets a hook find the tenant,
 * session and claim its call was opened with. An entry lives from the claim to the end of its
 * answer, so the maps hold nothing for a conversation between its calls.
 *
 * <p>A hook finds its exchange, in this order:
 * <ol>
 *   <li>by its LangChain4j invocation, when LangChain4j hands it one (the tool provider, the tool
 *       executor, the guardrail, the listeners): the exchange the started listener bound to it;
 *   <li>by the thread: the exchange whose code is running on this thread now (the service proxy's
 *       call, a visible stream's start), or the one a listener event of its invocation announced on
 *       this thread just before (how the request transformer, which LangChain4j hands only a memory
 *       id, finds the follow-up requests of a stream on the HTTP client's thread);
 *   <li>else, for a hook used alone, by the key it resolves for this very call: the running exchange
 *       of the same tenant and conversation, or the conversation opened for this one call.
 * </ol>
 * A thread's exchange is only taken for the conversation the hook names; any other is ignored with a
 * log line. So a hook never acts on another tenant's exchange, whatever ids the two picked.
 */
final class Exchanges {

    private static final Logger LOG = LoggerFactory.getLogger(Exchanges.class);

    private final Conversations conversations;
    private final Receipts receipts = new Receipts();
    private final Map<ConversationKey, Exchange> running = new ConcurrentHashMap<>();
    private final Map<UUID, Exchange> invocations = new ConcurrentHashMap<>();
    /** The exchange whose own code runs on this thread now (set and restored around it). */
    private final ThreadLocal<Exchange> scoped = new ThreadLocal<>();
    /** The exchange a listener event of its invocation announced on this thread; the transformer takes it once. */
    private final ThreadLocal<Exchange> announced = new ThreadLocal<>();

    Exchanges(Conversations conversations) {
        this.conversations = conversations;
    }

    /**
     * Claims the conversation of {@code memoryId} for one call, before anything of it is recorded:
     * resolves the tenant (once for the whole exchange), leases its engine and begins a turn of the
     * session. A call without a tenant runs without memory and claims nothing.
     *
     * @throws ConversationBusyException when a call of the same tenant on this conversation is still running
     * @throws IllegalArgumentException when the memory id cannot name a conversation
     */
    Exchange begin(Object memoryId, Exchange.Owner owner) {
        String id = MemoryIds.conversationId(memoryId);
        ConversationKey key = conversations.key(memoryId, id);
        if (key.hasMemory() && running.containsKey(key)) {
            throw new ConversationBusyException(id); // cheap refusal before the engine is leased
        }
        Conversations.Opened opened = conversations.open(key, memoryId);
        MemorySession.Turn turn = null;
        try {
            turn = opened.session() == null ? null : opened.session().beginTurn();
            Exchange[] self = new Exchange[1];
            Exchange exchange = new Exchange(key, opened, turn, owner, () -> unregister(self[0]), receipts);
            self[0] = exchange;
            if (key.hasMemory() && running.putIfAbsent(key, exchange) != null) {
                throw new ConversationBusyException(id);
            }
            return exchange;
        } catch (RuntimeException e) {
            try {
                if (turn != null) {
                    turn.close();
                }
            } finally {
                opened.close();
            }
            throw e;
        }
    }

    private void unregister(Exchange exchange) {
        running.remove(exchange.key(), exchange);
        UUID invocation = exchange.invocation();
        if (invocation != null) {
            invocations.remove(invocation, exchange);
        }
    }

    /**
     * Ties {@code exchange} to LangChain4j's invocation, so every later hook of that invocation finds
     * it whatever thread it runs on.
     *
     * @return false when the exchange belongs to another invocation
     */
    boolean bind(Exchange exchange, UUID invocationId) {
        if (!exchange.bind(invocationId)) {
            return false;
        }
        if (invocationId != null) {
            invocations.put(invocationId, exchange);
            if (exchange.ended()) {
                invocations.remove(invocationId, exchange); // it ended meanwhile: keep nothing for it
            }
        }
        return true;
    }

    /** The running exchange bound to this invocation, if any. */
    Optional<Exchange> ofInvocation(InvocationContext call) {
        if (call == null || call.invocationId() == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(invocations.get(call.invocationId())).filter(exchange -> !exchange.ended());
    }

    /** What {@link #enter} returns: closing it gives the thread back its previous exchange. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Makes {@code exchange} this thread's own until the returned scope is closed: what the service
     * proxy and a visible stream wrap around the LangChain4j code they call.
     */
    Scope enter(Exchange exchange) {
        Exchange before = scoped.get();
        scoped.set(exchange);
        return () -> {
            if (before == null) {
                scoped.remove();
            } else {
                scoped.set(before);
            }
        };
    }

    /** The exchange whose own code runs on this thread, for this conversation. */
    Optional<Exchange> runningHere(String conversationId) {
        return matching(scoped.get(), conversationId);
    }

    /**
     * The exchange a {@code visibleTokens} stream of this call joins: the one running or announced on
     * this thread for its conversation, else the running exchange of the tenant resolved now for it
     * (the listeners' exchange of this call, started on another thread); never another tenant's.
     */
    Optional<Exchange> forStream(Object memoryId) {
        String id = MemoryIds.conversationId(memoryId);
        Optional<Exchange> here = runningHere(id).or(() -> matching(announced.get(), id));
        if (here.isPresent()) {
            return here;
        }
        ConversationKey key = conversations.key(memoryId, id);
        return key.hasMemory() ? Optional.ofNullable(running.get(key)) : Optional.empty();
    }

    /**
     * The tenant a read or write of the application's chat memory {@code memoryId} is for, found the
     * way the hooks find their exchange: the exchange running or announced on this thread for that
     * conversation, else the tenant resolved now.
     *
     * @return the tenant ({@link ConversationKey#SHARED} over one shared engine); null when there is none
     */
    String tenantOf(Object memoryId) {
        String id = String.valueOf(memoryId);
        return runningHere(id).or(() -> matching(announced.get(), id)).map(Exchange::key)
                .orElseGet(() -> conversations.key(memoryId, id)).tenant();
    }

    /**
     * Announces, on this thread, the exchange of an invocation whose event a listener just received:
     * the request transformer that LangChain4j calls next on this thread for that invocation takes it.
     */
    void announce(Exchange exchange) {
        announced.set(exchange);
    }

    /** Forgets what was announced on this thread for {@code exchange}: its call is over. */
    void withdraw(Exchange exchange) {
        if (announced.get() == exchange) {
            announced.remove();
        }
    }

    /**
     * Runs {@code use} on this call's exchange (see the class comment for how it is found), or, for a
     * hook used alone whose tenant and conversation have none running, on a conversation opened for
     * this one call.
     *
     * @param call the invocation LangChain4j handed the hook; null for a hook it hands only a memory id
     * @param takeAnnounced whether the hook takes (and so clears) what a listener announced on this
     *     thread: the request transformer does, as the last hook before the request leaves
     * @throws ConversationBusyException when the conversation of this call's tenant runs another invocation
     */
    <R> R withExchange(InvocationContext call, Object memoryId, boolean takeAnnounced, Function<Exchange, R> use) {
        String id = MemoryIds.conversationId(memoryId);
        Optional<Exchange> own = ofInvocation(call).or(() -> runningHere(id));
        if (own.isEmpty()) {
            Exchange told = announced.get();
            if (takeAnnounced) {
                announced.remove();
            }
            own = matching(told, id);
        }
        if (own.isPresent()) {
            return use.apply(own.get());
        }
        ConversationKey key = conversations.key(memoryId, id);
        Exchange same = key.hasMemory() ? running.get(key) : null;
        if (same != null) {
            UUID invocation = call == null ? null : call.invocationId();
            if (!same.belongsTo(invocation)) {
                throw new ConversationBusyException(id);
            }
            return use.apply(same); // the same tenant's conversation: the hook's own memory
        }
        Conversations.Opened opened = conversations.open(key, memoryId);
        Exchange once = new Exchange(key, opened, null, Exchange.Owner.HOOK, () -> {}, receipts);
        try {
            return use.apply(once);
        } finally {
            once.end();
        }
    }

    /** {@code exchange} if it still runs and is on {@code conversationId}; a mismatch is logged and ignored. */
    private static Optional<Exchange> matching(Exchange exchange, String conversationId) {
        if (exchange == null || exchange.ended()) {
            return Optional.empty();
        }
        if (!exchange.conversationId().equals(conversationId)) {
            LOG.debug("a hook for conversation '{}' ran where {} is running; not using that exchange",
                    conversationId, exchange.key());
            return Optional.empty();
        }
        return Optional.of(exchange);
    }

    /**
     * The receipt of the newest answer recorded in the conversation of {@code memoryId}, for the
     * tenant resolved now; empty when none is kept (see {@link Receipts}).
     */
    Optional<dev.mnemo.MemoryReceipt> lastReceipt(Object memoryId) {
        String id = MemoryIds.conversationId(memoryId);
        ConversationKey key = conversations.key(memoryId, id);
        return key.hasMemory() ? receipts.newest(key) : Optional.empty();
    }

    /**
     * Closes the conversation of {@code memoryId} (for the tenant resolved now) in its engine,
     * ending the exchange running on it, if any, first: its later recording steps are dropped; its
     * newest receipt is forgotten.
     *
     * @return false when the engine had no open session for it
     */
    boolean endConversation(Object memoryId) {
        String id = MemoryIds.conversationId(memoryId);
        ConversationKey key = conversations.key(memoryId, id);
        receipts.forget(key);
        boolean[] closed = new boolean[1];
        Runnable close = () -> closed[0] = conversations.close(key);
        Exchange exchange = key.hasMemory() ? running.get(key) : null;
        if (exchange != null) {
            exchange.end(close);
        } else {
            close.run();
        }
        return closed[0];
    }
}
