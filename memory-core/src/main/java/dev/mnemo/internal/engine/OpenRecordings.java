package dev.mnemo.internal.engine;

import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SessionRecorder;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's {@link SessionRecorder}: remembers every session it started until the session is
 * closed, so that closing the engine closes the sessions its caller left open.
 */
final class OpenRecordings implements SessionRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(OpenRecordings.class);

    private final SessionRecorder recorder;
    private final Runnable requireOpen;
    private final BiConsumer<String, String> userMessages;
    private final Set<Tracked> open = ConcurrentHashMap.newKeySet();

    /**
     * @param requireOpen throws when the engine is closed
     * @param userMessages told of each user message recorded by a session that is not ephemeral
     *     (thread id, text), after the rollout has it: the message history
     */
    OpenRecordings(SessionRecorder recorder, Runnable requireOpen, BiConsumer<String, String> userMessages) {
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.requireOpen = Objects.requireNonNull(requireOpen, "requireOpen");
        this.userMessages = Objects.requireNonNull(userMessages, "userMessages");
    }

    @Override
    public RecordedSession start(SessionContext session) {
        requireOpen.run();
        Tracked tracked = new Tracked(recorder.start(session), session.ephemeral());
        open.add(tracked);
        try {
            requireOpen.run(); // closed meanwhile: closeAll may have missed this one
        } catch (RuntimeException e) {
            tracked.close();
            throw e;
        }
        return tracked;
    }

    /** Closes every session still open; one that fails to close is logged and the rest still close. */
    void closeAll() {
        for (Tracked session : List.copyOf(open)) {
            try {
                session.close();
            } catch (RuntimeException e) {
                LOG.warn("memory engine closing: recorded session {} did not close cleanly", session.threadId(), e);
            }
        }
    }

    /** A recorded session that leaves the open set when it closes. */
    private final class Tracked implements RecordedSession {
        private final RecordedSession delegate;
        private final boolean ephemeral;

        Tracked(RecordedSession delegate, boolean ephemeral) {
            this.delegate = delegate;
            this.ephemeral = ephemeral;
        }

        @Override
        public String threadId() {
            return delegate.threadId();
        }

        @Override
        public void userMessage(String text) {
            delegate.userMessage(text);
            if (!ephemeral) {
                userMessages.accept(delegate.threadId(), text);
            }
        }

        @Override
        public void assistantMessage(String text) {
            delegate.assistantMessage(text);
        }

        @Override
        public void developerMessage(String text) {
            delegate.developerMessage(text);
        }

        @Override
        public void toolCall(String callId, String name, String argumentsJson) {
            delegate.toolCall(callId, name, argumentsJson);
        }

        @Override
        public void toolOutput(String callId, String output) {
            delegate.toolOutput(callId, output);
        }

        @Override
        public void externalContext(String kind) {
            delegate.externalContext(kind);
        }

        @Override
        public void close() {
            try {
                delegate.close();
            } finally {
                open.remove(this);
            }
        }
    }
}
