package dev.mnemo.store.sqlite;

import dev.mnemo.SelectionPolicy;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.Phase2SelectionParams;
import dev.mnemo.spi.Phase2Store;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1Output;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The {@link Phase2Store} role of {@link SqliteMemoryStore}: the Phase 2 singleton job (global lock,
 * heartbeat, completions, enqueue; {@link Phase2JobQueries}) and the inputs it reads from
 * {@code stage1_outputs} ({@link Stage1OutputQueries}). A successful consolidation records its
 * selection in the same write transaction that completes the job.
 */
final class SqlitePhase2 implements Phase2Store {

    private final SqliteDatabase database;

    SqlitePhase2(SqliteDatabase database) {
        this.database = database;
    }

    @Override
    public JobClaim tryClaimPhase2Job(String workerId, Duration lease, Instant now) {
        return claimPhase2(workerId, lease, now, false);
    }

    @Override
    public JobClaim tryClaimPhase2JobNow(String workerId, Duration lease, Instant now) {
        return claimPhase2(workerId, lease, now, true);
    }

    private JobClaim claimPhase2(String workerId, Duration lease, Instant now, boolean pastCooldown) {
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        return database.write(pastCooldown ? "claim the Phase 2 lock past its cooldown" : "claim the Phase 2 lock",
                connection -> Phase2JobQueries.tryClaim(connection, workerId, lease, now, pastCooldown));
    }

    @Override
    public boolean heartbeatPhase2Job(String ownershipToken, Duration lease, Instant now) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        return database.write("extend the Phase 2 lease",
                connection -> Phase2JobQueries.heartbeat(connection, ownershipToken, lease, now));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here the job and the new selection are one write transaction: a worker that lost the job
     * changes neither.
     */
    @Override
    public boolean markPhase2Succeeded(String ownershipToken, long completedWatermark, List<SelectedInput> selected,
            Instant now) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        List<SelectedInput> inputs = List.copyOf(Objects.requireNonNull(selected, "selected"));
        Objects.requireNonNull(now, "now");
        return database.write("complete Phase 2", connection -> {
            if (!Phase2JobQueries.markSucceeded(connection, ownershipToken, completedWatermark, now)) {
                return false;
            }
            Stage1OutputQueries.replaceSelection(connection, inputs);
            return true;
        });
    }

    @Override
    public boolean markPhase2Failed(String ownershipToken, String reason, Duration retryDelay, Instant now) {
        return failPhase2(ownershipToken, reason, retryDelay, now, false);
    }

    @Override
    public boolean markPhase2FailedIfUnowned(String ownershipToken, String reason, Duration retryDelay, Instant now) {
        return failPhase2(ownershipToken, reason, retryDelay, now, true);
    }

    private boolean failPhase2(String ownershipToken, String reason, Duration retryDelay, Instant now,
            boolean unownedToo) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(now, "now");
        return database.write("fail Phase 2", connection -> Phase2JobQueries.markFailed(connection, ownershipToken,
                reason, retryDelay, now, unownedToo));
    }

    @Override
    public void enqueuePhase2(long inputWatermark) {
        database.write("queue Phase 2", connection -> {
            Phase2JobQueries.enqueue(connection, inputWatermark);
            return null;
        });
    }

    @Override
    public List<Stage1Output> phase2InputSelection(int limit, int maxUnusedDays, Instant now) {
        Objects.requireNonNull(now, "now");
        return database.read("select Phase 2 inputs",
                connection -> Stage1OutputQueries.phase2Selection(connection, limit, maxUnusedDays, now));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here {@code FAIR} reads the eligible memories' ranking columns in one read transaction,
     * ranks them in Java with {@link dev.mnemo.spi.FairSelection} and loads the chosen rows in the
     * same transaction; a memory counts as selected before when {@code consolidated_threads} records
     * it or it is in the current selection.
     */
    @Override
    public List<Stage1Output> phase2InputSelection(Phase2SelectionParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        if (params.policy() == SelectionPolicy.CODEX) {
            return phase2InputSelection(params.limit(), params.maxUnusedDays(), now);
        }
        return database.readSnapshot("select Phase 2 inputs fairly",
                connection -> Stage1OutputQueries.fairSelection(connection, params, now));
    }

    @Override
    public List<Stage1Output> listStage1OutputsForGlobal(int limit) {
        return database.read("list memories", connection -> Stage1OutputQueries.listForGlobal(connection, limit));
    }

    @Override
    public void replacePhase2Selection(List<SelectedInput> selected) {
        List<SelectedInput> inputs = List.copyOf(Objects.requireNonNull(selected, "selected"));
        database.write("replace the Phase 2 selection", connection -> {
            Stage1OutputQueries.replaceSelection(connection, inputs);
            return null;
        });
    }
}
