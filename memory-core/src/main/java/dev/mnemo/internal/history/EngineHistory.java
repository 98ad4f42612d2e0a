package dev.mnemo.internal.history;

import dev.mnemo.HistoryConfig;
import dev.mnemo.HistoryEntry;
import dev.mnemo.MessageHistory;
import dev.mnemo.spi.HistoryStore;
import dev.mnemo.spi.SecretRedactor;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The engine's message history over any {@link HistoryStore}: decides what is kept, once for every
 * store. Nothing when {@code [history] persistence = "none"} or the text is blank (Codex keeps no
 * empty entries); otherwise the text redacted (Codex writes secrets as typed), stamped with the
 * engine's clock, trimmed at {@code max_bytes}.
 */
public final class EngineHistory implements MessageHistory {

    private final HistoryStore store;
    private final HistoryConfig config;
    private final SecretRedactor redactor;
    private final Clock clock;

    public EngineHistory(HistoryStore store, HistoryConfig config, SecretRedactor redactor, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.config = Objects.requireNonNull(config, "config");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Appends one user message of {@code sessionId}, redacted. Returns false, writing nothing, when
     * persistence is {@code none} or the text is blank.
     */
    public boolean append(String sessionId, String text) {
        return append(sessionId, text, now());
    }

    /** {@link #append(String, String)} stamped {@code at}: when the message came, for an append made later. */
    public boolean append(String sessionId, String text, Instant at) {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(at, "at");
        if (!keeps(text)) {
            return false;
        }
        store.append(sessionId, at.getEpochSecond(), redactor.redact(text), config.maxBytes().orElse(0));
        return true;
    }

    /** Whether an append of {@code text} writes a line: persistence is not {@code none} and the text not blank. */
    public boolean keeps(String text) {
        return config.persistence() != HistoryConfig.Persistence.NONE && !text.isBlank();
    }

    /** The time an append made now is stamped with (the engine's clock). */
    public Instant now() {
        return clock.instant();
    }

    /** Removes every line of {@code sessionId}; returns how many went. */
    public int removeSession(String sessionId) {
        return store.removeSession(sessionId);
    }

    @Override
    public List<HistoryEntry> search(String text, int limit) {
        return store.search(text, limit);
    }

    @Override
    public List<HistoryEntry> recent(int limit) {
        return store.recent(limit);
    }

    @Override
    public Optional<HistoryEntry> entry(long offset) {
        return store.entry(offset);
    }

    @Override
    public String toString() {
        return store.toString();
    }
}
