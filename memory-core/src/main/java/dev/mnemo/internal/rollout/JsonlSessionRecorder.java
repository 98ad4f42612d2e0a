package dev.mnemo.internal.rollout;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SessionRecorder;
import dev.mnemo.spi.MemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records sessions as Codex-format rollouts under
 * {@code <home>/sessions/YYYY/MM/DD/rollout-<local-ts>-<id>.jsonl} (read sheet §5.1) and keeps
 * each thread's row in the {@link MemoryStore} current. Ephemeral sessions record nothing.
 * Sub-agent sessions are recorded with a {@code {"subagent": …}} source, which never becomes
 * memory.
 */
public final class JsonlSessionRecorder implements SessionRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(JsonlSessionRecorder.class);
    private static final DateTimeFormatter FILE_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss");
    private static final Pattern UNSAFE_FILE_CHARS = Pattern.compile("[^A-Za-z0-9._-]");

    private final Path sessionsDir;
    private final MemoryStore store;
    private final MemoriesConfig config;
    private final Clock clock;

    /**
     * @param home Mnemo's home folder; rollouts go to its {@code sessions/} subfolder
     */
    public JsonlSessionRecorder(Path home, MemoryStore store, MemoriesConfig config, Clock clock) {
        this.sessionsDir = Objects.requireNonNull(home, "home").resolve("sessions");
        this.store = Objects.requireNonNull(store, "store");
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Starts recording: creates the rollout file, writes its {@code session_meta} line and
     * registers the thread.
     *
     * @throws UncheckedIOException when the rollout file cannot be created; the message names it
     */
    @Override
    public RecordedSession start(SessionContext session) {
        Objects.requireNonNull(session, "session");
        if (session.ephemeral()) {
            LOG.debug("Session {} is ephemeral; nothing is recorded", session.threadId());
            return new EphemeralSession(session.threadId());
        }
        Path file = rolloutPath(session);
        try {
            JsonlRecordedSession recorded = new JsonlRecordedSession(session, file, store, config, clock);
            LOG.info("Recording session {} to {}", session.threadId(), file);
            return recorded;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create rollout " + file + " for session " + session.threadId()
                    + ": " + e.getMessage(), e);
        }
    }

    /** {@code sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl}, in the clock's local time. */
    Path rolloutPath(SessionContext session) {
        LocalDateTime local = LocalDateTime.ofInstant(clock.instant(), clock.getZone());
        String id = UNSAFE_FILE_CHARS.matcher(session.threadId()).replaceAll("_");
        return sessionsDir.resolve(String.format("%04d", local.getYear()))
                .resolve(String.format("%02d", local.getMonthValue()))
                .resolve(String.format("%02d", local.getDayOfMonth()))
                .resolve("rollout-" + FILE_TIMESTAMP.format(local) + "-" + id + ".jsonl");
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
