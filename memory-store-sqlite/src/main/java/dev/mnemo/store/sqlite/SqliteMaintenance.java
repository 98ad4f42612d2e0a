package dev.mnemo.store.sqlite;

import dev.mnemo.MemoryStatus;
import dev.mnemo.spi.MaintenanceStore;
import dev.mnemo.spi.Phase2ClaimPolicy;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link MaintenanceStore} role of {@link SqliteMemoryStore}: what spans every table rather than
 * one role — releasing a worker's jobs of both kinds, clearing all memory data in one write
 * transaction (stage-1 memories, memory jobs, the last model failure, notes awaiting approval and
 * the forget ledger, then a WAL checkpoint), and the status read, one snapshot over all of them.
 */
final class SqliteMaintenance implements MaintenanceStore {

    /** The store's own category, so log configuration written for it keeps working. */
    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);

    private final SqliteDatabase database;

    SqliteMaintenance(SqliteDatabase database) {
        this.database = database;
    }

    @Override
    public int releaseJobs(String workerId, String reason, Instant now) {
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(now, "now");
        int released = database.write("release jobs of " + workerId,
                connection -> JobQueries.release(connection, workerId, reason, now));
        if (released > 0) {
            LOG.info("released {} running jobs of worker {}: {}", released, workerId, reason);
        }
        return released;
    }

    /** {@inheritDoc} Notes awaiting approval are deleted too. */
    @Override
    public void clearMemoryData() {
        database.write("clear memory data", connection -> {
            Stage1OutputQueries.deleteAll(connection);
            JobQueries.deleteMemoryJobs(connection);
            Stage1JobQueries.clearModelFailure(connection);
            PendingNoteQueries.deleteAll(connection);
            ForgetQueries.deleteAll(connection);
            return null;
        });
        database.checkpointBestEffort();
        LOG.info("cleared every stage-1 memory, memory job and note awaiting approval in {}", database.file());
    }

    @Override
    public MemoryStatus status(Instant now) {
        return status(now, OptionalInt.empty());
    }

    @Override
    public MemoryStatus status(Instant now, int maxUnusedDays) {
        return status(now, OptionalInt.of(maxUnusedDays));
    }

    private MemoryStatus status(Instant now, OptionalInt maxUnusedDays) {
        Objects.requireNonNull(now, "now");
        return database.readSnapshot("read status", connection -> {
            Optional<Phase2ClaimPolicy.JobRow> phase2 = Phase2JobQueries.row(connection);
            OptionalInt unused = maxUnusedDays.isPresent()
                    ? OptionalInt.of(Stage1OutputQueries.countUnused(connection, maxUnusedDays.getAsInt(), now))
                    : OptionalInt.empty();
            return new MemoryStatus(JobQueries.countsByKind(connection), JobQueries.runningLeases(connection),
                    Phase2JobQueries.lastSuccessAt(connection).or(() -> phase2.flatMap(Phase2ClaimPolicy::lastSuccess)),
                    phase2.map(Phase2ClaimPolicy.JobRow::lastError), ThreadQueries.countsByMode(connection),
                    Stage1OutputQueries.count(connection), Optional.empty(), now, Map.of(),
                    Stage1JobQueries.lastModelFailure(connection), unused,
                    phase2.flatMap(row -> Phase2ClaimPolicy.notBefore(row, now)), ForgetQueries.pending(connection),
                    DeadJobQueries.count(connection));
        });
    }
}
