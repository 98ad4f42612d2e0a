package dev.mnemo.internal.engine;

import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SessionRecorder;
import dev.mnemo.StartupTask;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's conversations: opening a session (its project, its recording, its startup task),
 * the shared sessions {@code conversation(id)} hands out and sweeps when idle
 * ({@link OpenConversations}), the recordings the engine must close with it
 * ({@link OpenRecordings}), and the clock and use count that order sessions by last use.
 */
final class EngineConversations {

    /** The engine's logger: these lines keep the name they were logged under before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(DefaultMemoryEngine.class);

    private final DefaultMemoryEngine engine;
    private final OpenRecordings recordings;
    private final OpenConversations open;
    private final AtomicLong uses = new AtomicLong();

    /**
     * @param engine what a session is opened on (its parts, its startup task) and belongs to
     * @param recordings every session the engine started recording and has not seen closed
     * @param open the conversations by thread id, with their idle and size bounds
     */
    EngineConversations(DefaultMemoryEngine engine, OpenRecordings recordings, OpenConversations open) {
        this.engine = engine;
        this.recordings = recordings;
        this.open = open;
    }

    /** The engine's {@link SessionRecorder}. */
    SessionRecorder recorder() {
        return recordings;
    }

    /** A new session the caller owns; fails when one is already open for the thread. */
    EngineSession openOwned(SessionContext session) {
        return open.openOwned(session, this::newSession);
    }

    /** The shared session of a conversation, opened on first use; sweeps when one is due. */
    EngineSession shared(String conversationId) {
        EngineSession session = open.shared(conversationId, this::newSession);
        open.maybeSweep(now(), session);
        return session;
    }

    /** The shared session of the context's conversation, opened with that context on first use. */
    EngineSession shared(SessionContext session) {
        EngineSession shared = open.shared(session, this::newSession);
        open.maybeSweep(now(), shared);
        return shared;
    }

    boolean close(String conversationId) {
        return open.close(conversationId);
    }

    /** Closes conversations idle past the timeout or beyond the bound; returns how many. */
    int sweep() {
        return open.sweep(now());
    }

    int count() {
        return open.size();
    }

    Instant now() {
        return engine.parts.clock().instant();
    }

    /** The next number in the engine's count of session uses. */
    long nextUse() {
        return uses.incrementAndGet();
    }

    void closed(EngineSession session) {
        open.closed(session);
    }

    /**
     * The project first (derived from a working folder once, then named), recording next (a
     * failure leaves nothing running), then the startup task.
     */
    private EngineSession newSession(SessionContext requested) {
        Optional<String> project = requested.project();
        SessionContext session = project.map(requested::inProject).orElse(requested);
        RecordedSession recorded = recordings.start(session);
        StartupTask task;
        try {
            task = engine.startStartupTask(session);
        } catch (RuntimeException e) {
            recorded.close();
            throw e;
        }
        return new EngineSession(engine, recorded, task, project, engine.parts.goalTools() && !session.ephemeral());
    }

    /**
     * The engine is closing: open conversations stop recording (an unfinished streamed answer keeps
     * what was shown), then every other session still recording.
     */
    void closeAll() {
        for (EngineSession session : open.all()) {
            try {
                session.close();
            } catch (RuntimeException e) {
                LOG.warn("memory engine closing: session {} did not close cleanly", session.threadId(), e);
            }
        }
        open.finishPendingCloses(); // idle ones evicted whose close is still queued
        recordings.closeAll();
    }
}
