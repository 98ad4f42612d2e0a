package dev.mnemo.postgres;

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
 * Maintenance of one tenant's memory state ({@link MaintenanceStore}), a role of
 * {@link PostgresMemoryStore}: releasing a worker's running jobs, clearing every memory, job, note
 * awaiting approval and forget-ledger row in one transaction (then vacuuming in the background), and
 * the status report, read in one snapshot over every role's rows. Logs under
 * {@link PostgresMemoryStore}'s name, as before the store was split by role.
 */
final class PostgresMaintenanceStore implements MaintenanceStore {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);

    private final StateTransactions state;

    PostgresMaintenanceStore(StateTransactions state) {
        this.state = state;
    }

    @Override
    public int releaseJobs(String workerId, String reason, Instant now) {
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(now, "now");
        int released = state.write("release jobs of " + workerId, tx -> JobRows.release(tx, workerId, reason, now));
        if (released > 0) {
            LOG.info("released {} running jobs of worker {} (tenant {}): {}", released, workerId, state.tenant(),
                    reason);
        }
        return released;
    }

    /** {@inheritDoc} Notes awaiting approval are deleted too. */
    @Override
    public void clearMemoryData() {
        int[] notes = new int[1];
        int deleted = state.write("clear memory data", tx -> {
            int rows = OutputRows.deleteAll(tx) + JobRows.deleteMemoryJobs(tx);
            JobRows.clearModelFailure(tx);
            notes[0] = PendingNoteRows.deleteAll(tx);
            PostgresForgetStore.deleteAll(tx);
            return rows;
        });
        if (deleted > 0) {
            state.vacuumAfterForget("clearing every memory");
        }
        if (notes[0] > 0) {
            state.vacuumNotes("clearing the notes awaiting approval");
        }
        LOG.info("cleared every stage-1 memory, memory job and note awaiting approval of tenant {}", state.tenant());
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
        return state.read("read status", tx -> {
            Optional<Phase2ClaimPolicy.JobRow> phase2 = JobRows.phase2Row(tx);
            OptionalInt unused = maxUnusedDays.isPresent()
                    ? OptionalInt.of(OutputRows.countUnused(tx, maxUnusedDays.getAsInt(), now)) : OptionalInt.empty();
            return new MemoryStatus(JobRows.countsByKind(tx), JobRows.runningLeases(tx),
                    tx.first("phase2.lastSuccessAt", row -> Tx.nullableLong(row, "last_success_at"))
                            .map(Instant::ofEpochSecond).or(() -> phase2.flatMap(Phase2ClaimPolicy::lastSuccess)),
                    phase2.map(Phase2ClaimPolicy.JobRow::lastError),
                    ThreadRows.countsByMode(tx), OutputRows.count(tx), Optional.empty(), now, Map.of(),
                    JobRows.lastModelFailure(tx), unused, phase2.flatMap(row -> Phase2ClaimPolicy.notBefore(row, now)),
                    PostgresForgetStore.pending(tx), DeadJobRows.count(tx));
        });
    }
}
