package dev.mnemo.postgres;

import dev.mnemo.HistoryEntry;
import dev.mnemo.spi.HistoryStore;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The message history of one tenant, in {@code tenant_message_history}: one row per line of Codex's
 * {@code history.jsonl}, each counted at the UTF-8 size of that line ({@link HistoryStore#jsonLine}),
 * so it trims as the file does. An append takes the tenant's history lock, inserts and trims in one
 * transaction, so appends from several servers never lose a line and a trim never races one. An
 * entry's offset is its row id: never reused, and looked up through the tenant's view, so a stale
 * offset (or another tenant's) finds nothing. A NUL in a text is kept as U+FFFD ({@link StorableText}).
 */
final class PostgresHistoryStore implements HistoryStore {

    static final SqlStatements SQL = SqlStatements.load("sql/history.sql");
    private static final List<String> TABLES = List.of("tenant_message_history");

    private final TenantDatabase database;
    private final String tenant;

    PostgresHistoryStore(TenantDatabase database, String tenant) {
        this.database = database;
        this.tenant = tenant;
    }

    @Override
    public void append(String sessionId, long ts, String text, long maxBytes) {
        String kept = StorableText.of(Objects.requireNonNull(text, "text"));
        long lineBytes = HistoryStore.jsonLine(sessionId, ts, kept).getBytes(StandardCharsets.UTF_8).length;
        database.write(tenant, SQL, "append to the message history", tx -> {
            // 1. One appender (and trimmer) of this tenant at a time, across servers.
            tx.first("history.lock", row -> Boolean.TRUE);
            // 2. The line.
            tx.first("history.append", row -> row.getLong(1), sessionId, ts, kept, lineBytes);
            // 3. Codex's trim: nothing within max_bytes; else down to the soft cap, never the newest line.
            if (maxBytes > 0 && tx.queryLong("history.totalBytes") > maxBytes) {
                long softCap = Math.min(Math.max((long) Math.floor(maxBytes * SOFT_CAP_RATIO), 1), maxBytes);
                tx.update("history.trim", Math.max(softCap, lineBytes));
            }
            return null;
        });
    }

    /** {@inheritDoc} The table is vacuumed in the background, as after every forget. */
    @Override
    public int removeSession(String sessionId) {
        Objects.requireNonNull(sessionId, "sessionId");
        int removed = database.write(tenant, SQL, "remove thread " + sessionId + " from the message history",
                tx -> tx.update("history.removeSession", sessionId));
        if (removed > 0) {
            database.vacuumLater(TABLES, "removing a thread's message history of tenant " + tenant);
        }
        return removed;
    }

    @Override
    public List<HistoryEntry> recent(int limit) {
        checkLimit(limit);
        if (limit == 0) {
            return List.of();
        }
        return oldestFirst(database.read(tenant, SQL, "read the message history",
                tx -> tx.query("history.recent", PostgresHistoryStore::entry, limit)));
    }

    @Override
    public List<HistoryEntry> search(String text, int limit) {
        Objects.requireNonNull(text, "text");
        checkLimit(limit);
        if (limit == 0) {
            return List.of();
        }
        return oldestFirst(database.read(tenant, SQL, "search the message history",
                tx -> tx.query("history.search", PostgresHistoryStore::entry, text, limit)));
    }

    @Override
    public Optional<HistoryEntry> entry(long offset) {
        if (offset < 0) {
            return Optional.empty();
        }
        return database.read(tenant, SQL, "read message history entry " + offset,
                tx -> tx.first("history.entry", PostgresHistoryStore::entry, offset));
    }

    private static void checkLimit(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, was " + limit);
        }
    }

    private static List<HistoryEntry> oldestFirst(List<HistoryEntry> newestFirst) {
        List<HistoryEntry> entries = new ArrayList<>(newestFirst);
        Collections.reverse(entries);
        return List.copyOf(entries);
    }

    private static HistoryEntry entry(ResultSet row) throws SQLException {
        return new HistoryEntry(row.getString("session_id"), row.getLong("ts"), row.getString("text"),
                row.getLong("id"));
    }

    @Override
    public String toString() {
        return "PostgresHistoryStore[schema " + database.schema() + ", tenant " + tenant + "]";
    }
}
