package dev.mnemo.internal.rollout;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SessionRecorder;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.SessionStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records sessions as Codex-format rollouts through a {@link SessionStore} (by default files under
 * {@code <home>/sessions/YYYY/MM/DD/rollout-<local-ts>-<id>.jsonl}, read sheet §5.1) and keeps
 * each thread's row in the {@link MemoryStore} current. Ephemeral sessions record nothing.
 * Sub-agent sessions are recorded with a {@code {"subagent": …}} source, which never becomes
 * memory.
 */
public final class JsonlSessionRecorder implements SessionRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(JsonlSessionRecorder.class);

    private final SessionStore rollouts;
    private final MemoryStore store;
    private final MemoriesConfig config;
    private final Clock clock;
    private final Consumer<String> polluted;

    /**
     * A recorder writing files.
     *
     * @param home Mnemo's home folder; rollouts go to its {@code sessions/} subfolder
     */
    public JsonlSessionRecorder(Path home, MemoryStore store, MemoriesConfig config, Clock clock) {
        this(new FileSessionStore(Objects.requireNonNull(home, "home").resolve("sessions"), clock), store, config,
                clock);
    }

    /** A recorder writing through {@code rollouts}. */
    public JsonlSessionRecorder(SessionStore rollouts, MemoryStore store, MemoriesConfig config, Clock clock) {
        this(rollouts, store, config, clock, threadId -> { });
    }

    /**
     * A recorder writing through {@code rollouts} that tells {@code polluted} of each thread its
     * sessions mark polluted ({@code disable_on_external_context}), once per thread.
     */
    public JsonlSessionRecorder(SessionStore rollouts, MemoryStore store, MemoriesConfig config, Clock clock,
            Consumer<String> polluted) {
        this.rollouts = Objects.requireNonNull(rollouts, "rollouts");
        this.store = Objects.requireNonNull(store, "store");
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.polluted = Objects.requireNonNull(polluted, "polluted");
    }

    /**
     * Starts recording: creates the rollout (or continues the thread's earlier one), writes its
     * {@code session_meta} line and registers the thread.
     *
     * @throws MemoryStoreException when the rollout cannot be created; the message names it
     */
    @Override
    public RecordedSession start(SessionContext session) {
        Objects.requireNonNull(session, "session");
        if (session.ephemeral()) {
            LOG.debug("Session {} is ephemeral; nothing is recorded", session.threadId());
            return new EphemeralSession(session.threadId());
        }
        Optional<ThreadInfo> earlier = store.thread(session.threadId());
        try {
            SessionStore.Writer writer = rollouts.startOrContinue(session, earlier, clock.instant());
            Optional<ThreadInfo> continued = writer.continued() ? earlier : Optional.empty();
            JsonlRecordedSession recorded = new JsonlRecordedSession(session, writer, continued, store, config, clock,
                    polluted);
            session.parentThreadId().ifPresent(parent -> SpawnEdges.record(store, parent, session.threadId(),
                    SpawnEdgeStatus.OPEN));
            LOG.info("{} session {} in {}", writer.continued() ? "Continuing" : "Recording", session.threadId(),
                    writer.rolloutPath());
            return recorded;
        } catch (IOException e) {
            throw new MemoryStoreException("cannot create the rollout of session " + session.threadId() + " in "
                    + rollouts.name() + ": " + e.getMessage(), e);
        }
    }

    /** See {@link FileSessionStore#fileId}. */
    static String fileId(String threadId) {
        return FileSessionStore.fileId(threadId);
    }

    /** A session that records nothing. */
    private static final class EphemeralSession implements RecordedSession {
        private final String threadId;

        EphemeralSession(String threadId) {
            this.threadId = threadId;
        }

        @Override
        public String threadId() {
            return threadId;
        }

        @Override
        public void userMessage(String text) {}

        @Override
        public void assistantMessage(String text) {}

        @Override
        public void developerMessage(String text) {}

        @Override
        public void toolCall(String callId, String name, String argumentsJson) {}

        @Override
        public void toolOutput(String callId, String output) {}

        @Override
        public void externalContext(String kind) {}

        @Override
        public void close() {}
    }
}
