package dev.mnemo.langchain4j;

import dev.mnemo.ConversationBusyException;
import dev.mnemo.MemorySession;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The exchanges running now, one at most per conversation id: what lets a hook that LangChain4j
 * hands only a memory id (the request transformer, on whatever thread) find the tenant, session and
 * claim its call was opened with. An entry lives from the claim to the end of its answer, so the map
 * holds nothing for a conversation between its calls.
 */
final class Exchanges {

    private final Conversations conversations;
    private final Map<String, Exchange> running = new ConcurrentHashMap<>();

    Exchanges(Conversations conversations) {
        this.conversations = conversations;
    }

    /**
     * Claims the conversation of {@code memoryId} for one call, before anything of it is recorded:
     * resolves the tenant, leases its engine and begins a turn of the session.
     *
     * @throws ConversationBusyException when a call on this conversation is still running
     * @throws IllegalArgumentException when the memory id cannot name a conversation
     */
    Exchange begin(Object memoryId, Exchange.Owner owner) {
        String id = MemoryIds.conversationId(memoryId);
        if (running.containsKey(id)) {
            throw new ConversationBusyException(id); // cheap refusal before the tenant is resolved
        }
        Conversations.Opened opened = conversations.open(memoryId, id);
        MemorySession.Turn turn = null;
        try {
            turn = opened.session() == null ? null : opened.session().beginTurn();
            Exchange[] self = new Exchange[1];
            Exchange exchange = new Exchange(id, opened, turn, owner, () -> running.remove(id, self[0]));
            self[0] = exchange;
            if (running.putIfAbsent(id, exchange) != null) {
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

    /** The running exchange of a memory id, if any. */
    Optional<Exchange> find(Object memoryId) {
        return Optional.ofNullable(running.get(MemoryIds.conversationId(memoryId)));
    }

    /**
     * Runs {@code use} on the running exchange of {@code memoryId}, or, for a hook used without the
     * listeners or {@code configure} (nothing opened an exchange), on a conversation opened for this
     * one call.
     */
    <R> R withExchange(Object memoryId, Function<Exchange, R> use) {
        String id = MemoryIds.conversationId(memoryId);
        Exchange running = this.running.get(id);
        if (running != null) {
            return use.apply(running);
        }
        Conversations.Opened opened = conversations.open(memoryId, id);
        Exchange once = new Exchange(id, opened, null, Exchange.Owner.HOOK, () -> {});
        try {
            return use.apply(once);
        } finally {
            once.end();
        }
    }

    /**
     * Closes the conversation of {@code memoryId} in its engine now, ending the exchange running on
     * it, if any, first: its later recording steps are dropped.
     *
     * @return false when the engine had no open session for it
     */
    boolean endConversation(Object memoryId) {
        String id = MemoryIds.conversationId(memoryId);
        boolean[] closed = new boolean[1];
        Runnable close = () -> closed[0] = conversations.close(memoryId, id);
        Exchange exchange = running.get(id);
        if (exchange != null) {
            exchange.end(close);
        } else {
            close.run();
        }
        return closed[0];
    }

    /** How many exchanges are running: 0 once every call has ended. */
    int runningCount() {
        return running.size();
    }
}
