package dev.mnemo.postgres;

import dev.mnemo.SessionContext;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.SessionStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rollouts of one tenant's recorded sessions, kept in PostgreSQL one row per appended line, so
 * a conversation recorded on one server is read by Phase 1 on another. A thread's rollout path is a
 * locator, {@code postgres/<schema>/sessions/<id>.jsonl}, never a file.
 */
final class PostgresSessionStore implements SessionStore {

    static final SqlStatements SQL = SqlStatements.load("sql/sessions.sql");

    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");
    private static final int PREFIX_CHARS = 48;
    private static final int FETCH_ROWS = 256;

    private final TenantDatabase database;
    private final String tenant;

    PostgresSessionStore(TenantDatabase database, String tenant) {
        this.database = database;
        this.tenant = tenant;
    }

    @Override
    public String name() {
        return "postgres:" + database.schema() + "/sessions";
    }

    @Override
    public Writer startOrContinue(SessionContext session, Optional<ThreadInfo> earlier, Instant now) {
        Objects.requireNonNull(session, "session");
        boolean continued = earlier.filter(this::holds).isPresent();
        return new LineWriter(session.threadId(), locator(session.threadId()), continued);
    }

    @Override
    public boolean holds(ThreadInfo thread) {
        return thread.rolloutPath().equals(locator(thread.id()))
                && database.readSnapshot(tenant, SQL, "look up the rollout of thread " + thread.id(),
                        tx -> tx.first("rollout.exists", row -> row.getBoolean(1), thread.id()).orElse(false));
    }

    @Override
    public InputStream open(ThreadInfo thread) throws IOException {
        TenantDatabase.OpenTransaction open = database.begin(tenant, SQL, true, "read the rollout of " + thread.id());
        try {
            PreparedStatement statement = open.tx().connection().prepareStatement(SQL.get("rollout.lines"));
            statement.setFetchSize(FETCH_ROWS);
            statement.setString(1, thread.id());
            return new LineStream(open, statement, statement.executeQuery());
        } catch (SQLException e) {
            open.close();
            throw new IOException("cannot read the rollout of thread " + thread.id() + " from " + name() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public boolean delete(ThreadInfo thread) {
        int deleted = database.write(tenant, SQL, "delete the rollout of thread " + thread.id(),
                tx -> tx.update("rollout.delete", thread.id()));
        if (deleted > 0) {
            database.vacuumLater(List.of("tenant_rollout_lines"), "deleting the rollout of thread " + thread.id()
                    + " of tenant " + tenant);
        }
        return deleted > 0;
    }

    /** {@code postgres/<schema>/sessions/<safe prefix>-<12 hex of SHA-256>.jsonl}: one per thread id. */
    Path locator(String threadId) {
        String safe = UNSAFE.matcher(threadId).replaceAll("_");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(threadId.getBytes(StandardCharsets.UTF_8));
            return Path.of("postgres", database.schema(), "sessions",
                    safe.substring(0, Math.min(safe.length(), PREFIX_CHARS)) + "-"
                            + HexFormat.of().formatHex(digest, 0, 6) + ".jsonl");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "PostgresSessionStore[schema " + database.schema() + ", tenant " + tenant + "]";
    }

    /** Appends each line in its own transaction: a line is stored when append returns. */
    private final class LineWriter implements Writer {
        private final String threadId;
        private final Path rolloutPath;
        private final boolean continued;

        LineWriter(String threadId, Path rolloutPath, boolean continued) {
            this.threadId = threadId;
            this.rolloutPath = rolloutPath;
            this.continued = continued;
        }

        @Override
        public Path rolloutPath() {
            return rolloutPath;
        }

        @Override
        public boolean continued() {
            return continued;
        }

        @Override
        public void append(byte[] line) {
            database.write(tenant, SQL, "append to the rollout of thread " + threadId,
                    tx -> tx.update("rollout.append", threadId, line));
        }
    }

    /** The lines of one rollout as one byte stream, fetched a page of rows at a time. */
    private static final class LineStream extends InputStream {
        private final TenantDatabase.OpenTransaction open;
        private final PreparedStatement statement;
        private final ResultSet rows;
        private byte[] current = new byte[0];
        private int position;
        private boolean closed;

        LineStream(TenantDatabase.OpenTransaction open, PreparedStatement statement, ResultSet rows) {
            this.open = open;
            this.statement = statement;
            this.rows = rows;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            Objects.checkFromIndexSize(offset, length, buffer.length);
            if (length == 0) {
                return 0;
            }
            while (position == current.length) {
                if (!nextRow()) {
                    return -1;
                }
            }
            int n = Math.min(length, current.length - position);
            System.arraycopy(current, position, buffer, offset, n);
            position += n;
            return n;
        }

        private boolean nextRow() throws IOException {
            if (closed) {
                throw new IOException("rollout stream is closed");
            }
            try {
                if (!rows.next()) {
                    return false;
                }
                current = rows.getBytes(1);
                position = 0;
                return true;
            } catch (SQLException e) {
                throw new IOException("cannot read a rollout line: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                rows.close();
                statement.close();
            } catch (SQLException e) {
                // the transaction is rolled back and the connection returned below either way
            } finally {
                open.close();
            }
        }
    }
}
