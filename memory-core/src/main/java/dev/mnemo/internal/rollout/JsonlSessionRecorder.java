package dev.mnemo.internal.rollout;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SessionRecorder;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.MemoryStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
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
    private static final int MAX_PLAIN_FILE_ID_CHARS = 80;
    private static final int FILE_ID_PREFIX_CHARS = 48;

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
     * @throws MemoryStoreException when the rollout file cannot be created; the message names it
     */
    @Override
    public RecordedSession start(SessionContext session) {
        Objects.requireNonNull(session, "session");
        if (session.ephemeral()) {
            LOG.debug("Session {} is ephemeral; nothing is recorded", session.threadId());
            return new EphemeralSession(session.threadId());
        }
        Optional<ThreadInfo> continued = store.thread(session.threadId())
                .filter(thread -> isOwnRollout(thread.rolloutPath()));
        Path file = continued.map(ThreadInfo::rolloutPath).orElseGet(() -> rolloutPath(session));
        try {
            JsonlRecordedSession recorded = new JsonlRecordedSession(session, file, continued, store, config, clock);
            LOG.info("{} session {} in {}", continued.isPresent() ? "Continuing" : "Recording", session.threadId(), file);
            return recorded;
        } catch (IOException e) {
            throw new MemoryStoreException("cannot create rollout " + file + " for session " + session.threadId()
                    + ": " + e.getMessage(), e);
        }
    }

    /** A rollout this recorder wrote earlier (under its {@code sessions/}) that is still there. */
    private boolean isOwnRollout(Path rollout) {
        Path absolute = rollout.toAbsolutePath().normalize();
        return absolute.startsWith(sessionsDir.toAbsolutePath().normalize()) && Files.isRegularFile(absolute)
                && absolute.getFileName().toString().endsWith(".jsonl");
    }

    /** {@code sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl}, in the clock's local time. */
    Path rolloutPath(SessionContext session) {
        LocalDateTime local = LocalDateTime.ofInstant(clock.instant(), clock.getZone());
        String id = fileId(session.threadId());
        return sessionsDir.resolve(String.format("%04d", local.getYear()))
                .resolve(String.format("%02d", local.getMonthValue()))
                .resolve(String.format("%02d", local.getDayOfMonth()))
                .resolve("rollout-" + FILE_TIMESTAMP.format(local) + "-" + id + ".jsonl");
    }

    /**
     * The thread id as it appears in a file name: the id itself when it is short and made of
     * {@code [A-Za-z0-9._-]} only; otherwise its first {@value #FILE_ID_PREFIX_CHARS} characters
     * with the others as {@code _}, then {@code -} and 12 hex digits of its SHA-256, so ids that
     * differ only in unsafe characters ({@code a/b}, {@code a_b}) never share a file and a
     * 300-character id still makes a valid name. The real id is in the {@code session_meta} line.
     */
    static String fileId(String threadId) {
        String safe = UNSAFE_FILE_CHARS.matcher(threadId).replaceAll("_");
        if (safe.equals(threadId) && safe.length() <= MAX_PLAIN_FILE_ID_CHARS) {
            return safe;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(threadId.getBytes(StandardCharsets.UTF_8));
            return safe.substring(0, Math.min(safe.length(), FILE_ID_PREFIX_CHARS)) + "-"
                    + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
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
