package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.SessionStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session being written. Every line is serialised first and then appended whole through the
 * {@link SessionStore.Writer}. After each line the thread row is upserted; a memory mode the store already holds
 * that is stricter than ours (disabled, polluted) is kept. A session that continues a rollout
 * recorded earlier appends to it without a second {@code session_meta} line.
 */
final class JsonlRecordedSession implements RecordedSession {

    private static final Logger LOG = LoggerFactory.getLogger(JsonlRecordedSession.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final DateTimeFormatter LINE_TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final SessionContext session;
    private final SessionStore.Writer rollout;
    private final MemoryStore store;
    private final MemoriesConfig config;
    private final Clock clock;
    private final Consumer<String> polluted;
    private final Instant createdAt;
    /** The session's project, derived once (a cwd's is found on the file system). */
    private final Optional<String> project;
    private MemoryMode memoryMode;
    private String preview = "";
    private boolean closed;

    /**
     * @param continued the thread's earlier row when {@code rollout} continues its rollout; empty to
     *     start a new rollout with its {@code session_meta} line
     */
    JsonlRecordedSession(SessionContext session, SessionStore.Writer rollout, Optional<ThreadInfo> continued,
            MemoryStore store, MemoriesConfig config, Clock clock, Consumer<String> polluted) {
        this.session = session;
        this.project = session.project();
        this.polluted = polluted;
        this.rollout = rollout;
        this.store = store;
        this.config = config;
        this.clock = clock;
        this.createdAt = continued.map(ThreadInfo::createdAt).orElseGet(clock::instant);
        this.memoryMode = config.generateMemories() ? MemoryMode.ENABLED : MemoryMode.DISABLED;
        if (continued.isEmpty()) {
            append("session_meta", sessionMeta());
        }
    }

    @Override
    public String threadId() {
        return session.threadId();
    }

    @Override
    public synchronized void userMessage(String text) {
        Objects.requireNonNull(text, "text");
        if (preview.isEmpty() && ContextualFragments.isRealUserText(text)) {
            preview = ContextualFragments.previewText(text);
        }
        append("response_item", message("user", "input_text", text));
    }

    @Override
    public synchronized void assistantMessage(String text) {
        Objects.requireNonNull(text, "text");
        append("response_item", message("assistant", "output_text", text));
    }

    @Override
    public synchronized void developerMessage(String text) {
        Objects.requireNonNull(text, "text");
        append("response_item", message("developer", "input_text", text));
    }

    @Override
    public synchronized void toolCall(String callId, String name, String argumentsJson) {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(argumentsJson, "argumentsJson");
        ObjectNode payload = JSON.objectNode().put("type", "function_call").put("name", name)
                .put("arguments", argumentsJson).put("call_id", callId);
        append("response_item", payload);
    }

    @Override
    public synchronized void toolOutput(String callId, String output) {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(output, "output");
        append("response_item", JSON.objectNode().put("type", "function_call_output").put("call_id", callId)
                .put("output", output));
    }

    @Override
    public synchronized void externalContext(String kind) {
        requireOpen();
        if (!config.disableOnExternalContext()) {
            LOG.debug("Session {} saw external context ({}); disable_on_external_context is off", threadId(), kind);
            return;
        }
        boolean changed = store.markThreadPolluted(threadId(), clock.instant());
        memoryMode = MemoryMode.POLLUTED;
        LOG.info("Session {} saw external context ({}); thread marked polluted{}", threadId(), kind,
                changed ? "" : " (it already was)");
        if (changed) {
            polluted.accept(threadId());
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        session.parentThreadId().ifPresent(parent -> SpawnEdges.record(store, parent, threadId(),
                SpawnEdgeStatus.CLOSED));
    }

    private ObjectNode sessionMeta() {
        ObjectNode payload = JSON.objectNode().put("id", threadId()).put("timestamp", LINE_TIMESTAMP.format(createdAt));
        session.cwd().ifPresent(cwd -> payload.put("cwd", cwd.toString()));
        project.ifPresent(key -> payload.put(SessionMeta.PROJECT_FIELD, key));
        payload.put("originator", "mnemo");
        if (session.subAgent()) {
            payload.set("source", JSON.objectNode().put(SessionMeta.SUBAGENT_SOURCE, session.source()));
        } else {
            payload.put("source", session.source());
        }
        payload.put("memory_mode", memoryMode.dbValue());
        return payload;
    }

    private static ObjectNode message(String role, String contentType, String text) {
        ObjectNode payload = JSON.objectNode().put("type", "message").put("role", role);
        ArrayNode content = payload.putArray("content");
        content.addObject().put("type", contentType).put("text", text);
        return payload;
    }

    /** Writes one whole line, flushes it, then updates the thread row. */
    private void append(String type, ObjectNode payload) {
        requireOpen();
        Instant now = clock.instant();
        ObjectNode line = JSON.objectNode().put("timestamp", LINE_TIMESTAMP.format(now)).put("type", type);
        line.set("payload", payload);
        try {
            rollout.append((line.toString() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MemoryStoreException("cannot append to rollout " + rollout.rolloutPath() + ": " + e.getMessage(),
                    e);
        }
        upsertThread(now);
    }

    private void upsertThread(Instant now) {
        Optional<ThreadInfo> existing = store.thread(threadId());
        MemoryMode mode = existing.map(ThreadInfo::memoryMode).filter(m -> m != MemoryMode.ENABLED).orElse(memoryMode);
        memoryMode = mode;
        store.upsertThread(ThreadInfo.builder(threadId())
                .rolloutPath(rollout.rolloutPath())
                .createdAt(existing.map(ThreadInfo::createdAt).orElse(createdAt))
                .updatedAt(now)
                .source(session.subAgent() ? SessionMeta.SUBAGENT_SOURCE : session.source())
                .cwd(session.cwd().orElse(null))
                .preview(preview.isEmpty() ? existing.map(ThreadInfo::preview).orElse("") : preview)
                .memoryMode(mode)
                .archived(existing.map(ThreadInfo::archived).orElse(false))
                .project(project.orElse(null))
                .build());
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("session " + threadId() + " is closed; its rollout " + rollout.rolloutPath()
                    + " takes no more lines");
        }
    }
}
