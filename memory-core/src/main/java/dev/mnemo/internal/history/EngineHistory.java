package dev.mnemo.internal.history;

import dev.mnemo.HistoryConfig;
import dev.mnemo.HistoryEntry;
import dev.mnemo.MessageHistory;
import dev.mnemo.spi.HistoryStore;
import dev.mnemo.spi.SecretRedactor;
import java.time.Clock;
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
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(text, "text");
        if (config.persistence() == HistoryConfig.Persistence.NONE || text.isBlank()) {
            return false;
        }
        store.append(sessionId, clock.instant().getEpochSecond(), redactor.redact(text), config.maxBytes().orElse(0));
        return true;
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
