package dev.mnemo.langchain4j;

import dev.mnemo.AnswerStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who takes the answer of each AiServices call, so it is recorded and counted exactly once: a
 * visible token stream running for the memory id, else the citation guardrail, else the
 * completion listener. Keyed by LangChain4j's invocation id and memory id, so calls of different
 * conversations never share an entry.
 */
final class Turns {

    /**
     * Calls whose answer the guardrail took, until the completion listener sees them. Bounded, so
     * a guardrail used without the listeners (nobody removes its marks) cannot grow it for ever;
     * far more calls than this are never in flight at once in one process.
     */
    static final int MAX_TRACKED_CALLS = 10_000;

    private final Set<UUID> answeredByGuardrail = Collections.synchronizedSet(Collections.newSetFromMap(
            new LinkedHashMap<>() {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<UUID, Boolean> eldest) {
                    return size() > MAX_TRACKED_CALLS;
                }
            }));
    private final Map<Object, AnswerStream> visibleStreams = new ConcurrentHashMap<>();

    /** The guardrail recorded this call's answer; the completion listener leaves it alone. */
    void answeredByGuardrail(UUID invocationId) {
        if (invocationId != null) {
            answeredByGuardrail.add(invocationId);
        }
    }

    /** Whether the guardrail recorded this call's answer; forgets the call either way. */
    boolean takeAnsweredByGuardrail(UUID invocationId) {
        return invocationId != null && answeredByGuardrail.remove(invocationId);
    }

    /**
     * A visible token stream takes the answers of this memory id until it ends.
     *
     * @throws IllegalStateException when one is already running for the memory id
     */
    void startVisibleStream(Object memoryId, AnswerStream stream) {
        Object key = key(memoryId);
        if (visibleStreams.putIfAbsent(key, stream) != null) {
            throw new IllegalStateException("a visible token stream is already running for memory id '" + key
                    + "': LangChain4j serves one call per memory id at a time");
        }
    }

    void endVisibleStream(Object memoryId, AnswerStream stream) {
        visibleStreams.remove(key(memoryId), stream);
    }

    boolean visibleStreamRunning(Object memoryId) {
        return visibleStreams.containsKey(key(memoryId));
    }

    private static Object key(Object memoryId) {
        return Objects.requireNonNullElse(memoryId, Conversations.DEFAULT_MEMORY_ID);
    }
}
