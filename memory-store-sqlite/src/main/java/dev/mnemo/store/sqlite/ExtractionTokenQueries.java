package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.seconds;

import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The daily extraction token ledger ({@code extraction_tokens}, V9): one row per UTC day holding
 * settled usage plus open reservations. Called inside write transactions, which SQLite serialises
 * across processes, so a reservation's check and its addition are one step.
 */
final class ExtractionTokenQueries {

    /**
     * Adds the reservation when the day's ledger plus it stays within the limit: the insert of a
     * new day's row is guarded by the first {@code WHERE}, the update of an existing one by the
     * second. Binds: day, tokens, now, tokens, limit, limit.
     */
    private static final String RESERVE = "INSERT INTO extraction_tokens (day, tokens, updated_at) SELECT ?, ?, ?"
            + " WHERE ? <= ?"
            + " ON CONFLICT(day) DO UPDATE SET tokens = tokens + excluded.tokens, updated_at = excluded.updated_at"
            + " WHERE tokens + excluded.tokens <= ?";

    /** Adds a signed correction, never below zero. Binds: day, correction (clamped), now, correction. */
    private static final String SETTLE = "INSERT INTO extraction_tokens (day, tokens, updated_at) VALUES (?, ?, ?)"
            + " ON CONFLICT(day) DO UPDATE SET tokens = max(0, tokens + ?), updated_at = excluded.updated_at";

    private ExtractionTokenQueries() {
    }

    static boolean reserve(PooledConnection connection, LocalDate day, long tokens, long limit, Instant now)
            throws SQLException {
        return Jdbc.update(connection, RESERVE, day.toString(), tokens, seconds(now), tokens, limit, limit) > 0;
    }

    static void settle(PooledConnection connection, LocalDate day, long reserved, long used, Instant now)
            throws SQLException {
        long correction = used - reserved;
        Jdbc.update(connection, SETTLE, day.toString(), Math.max(0, correction), seconds(now), correction);
    }

    static long spent(PooledConnection connection, LocalDate day) throws SQLException {
        return Jdbc.queryLong(connection, "SELECT tokens FROM extraction_tokens WHERE day = ?", day.toString());
    }
}
