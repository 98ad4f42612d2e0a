package dev.mnemo.postgres;

import dev.mnemo.spi.ForgetStore;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The forget ledger of one tenant ({@link ForgetStore}), a role of {@link PostgresMemoryStore}: when
 * each thread was first consolidated, and the forgets still waiting for a consolidation to take
 * effect in the workspace, with the {@code forget.*} statements of {@code state.sql}. The status
 * report reads the pending forgets and clearing the memory data empties the ledger through this
 * class's static helpers, inside their own transactions.
 */
final class PostgresForgetStore implements ForgetStore {

    private final StateTransactions state;

    PostgresForgetStore(StateTransactions state) {
        this.state = state;
    }

    @Override
    public void recordConsolidatedThreads(Collection<String> threadIds, Instant at) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        Objects.requireNonNull(at, "at");
        if (ids.isEmpty()) {
            return;
        }
        state.write("record consolidated threads", tx -> {
            for (String id : ids) {
                tx.update("forget.recordConsolidated", id, at.getEpochSecond());
            }
            return null;
        });
    }

    @Override
    public Optional<Instant> firstConsolidated(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return state.read("read the first consolidation of thread " + threadId, tx -> tx.first(
                "forget.firstConsolidated", row -> Instant.ofEpochSecond(row.getLong(1)), threadId));
    }

    @Override
    public void addPendingForget(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        state.write("record a pending forget of thread " + threadId,
                tx -> tx.update("forget.addPending", threadId, now.getEpochSecond()));
    }

    @Override
    public Set<String> pendingForgets() {
        return Set.copyOf(state.read("read pending forgets", PostgresForgetStore::pending));
    }

    @Override
    public void completeForgets(Collection<String> threadIds) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        if (ids.isEmpty()) {
            return;
        }
        state.write("complete forgets", tx -> tx.update("forget.completePending", tx.textArray(ids))
                + tx.update("forget.completeConsolidated", tx.textArray(ids)));
    }

    /** The threads whose forget waits for a consolidation, inside the caller's transaction. */
    static List<String> pending(Tx tx) throws SQLException {
        return tx.query("forget.pending", row -> row.getString(1));
    }

    /** Empties the ledger (pending forgets, then first consolidations), inside the caller's transaction. */
    static void deleteAll(Tx tx) throws SQLException {
        tx.update("forget.deleteAllPending");
        tx.update("forget.deleteAllConsolidated");
    }
}
