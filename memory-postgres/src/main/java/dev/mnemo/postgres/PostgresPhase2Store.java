package dev.mnemo.postgres;

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
 * Phase 2's state of one tenant ({@link Phase2Store}), a role of {@link PostgresMemoryStore}: the
 * global consolidation job ({@link JobRows}, claimed under the tenant's Phase 2 claim lock as
 * {@link dev.mnemo.spi.Phase2ClaimPolicy} decides) and the selection of memories it consolidates
 * ({@link OutputRows}). A claim is recorded in the engine's {@link Phase2Lock}, and released there
 * when the consolidation is marked done or failed, so the workspace commits only for the owner.
 */
final class PostgresPhase2Store implements Phase2Store {

    private final StateTransactions state;
    private final Phase2Lock phase2Lock;

    PostgresPhase2Store(StateTransactions state, Phase2Lock phase2Lock) {
        this.state = state;
        this.phase2Lock = phase2Lock;
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
        String what = pastCooldown ? "claim the Phase 2 lock past its cooldown" : "claim the Phase 2 lock";
        JobClaim claim = state.write(what, tx -> {
            JobRows.lockClaims(tx, JobRows.PHASE2);
            return JobRows.tryClaimPhase2(tx, workerId, lease, now, pastCooldown);
        });
        if (claim.isClaimed()) {
            phase2Lock.claimed(claim.token());
        }
        return claim;
    }

    @Override
    public boolean heartbeatPhase2Job(String ownershipToken, Duration lease, Instant now) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        return state.write("extend the Phase 2 lease", tx -> JobRows.heartbeatPhase2(tx, ownershipToken, lease, now));
    }

    @Override
    public boolean markPhase2Succeeded(String ownershipToken, long completedWatermark, List<SelectedInput> selected,
            Instant now) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        List<SelectedInput> inputs = List.copyOf(Objects.requireNonNull(selected, "selected"));
        Objects.requireNonNull(now, "now");
        phase2Lock.finished(ownershipToken);
        return state.write("complete Phase 2", tx -> {
            if (!JobRows.markPhase2Succeeded(tx, ownershipToken, completedWatermark, now)) {
                return false;
            }
            OutputRows.replaceSelection(tx, inputs);
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
        phase2Lock.finished(ownershipToken);
        return state.write("fail Phase 2",
                tx -> JobRows.markPhase2Failed(tx, ownershipToken, reason, retryDelay, now, unownedToo));
    }

    @Override
    public void enqueuePhase2(long inputWatermark) {
        state.write("queue Phase 2", tx -> {
            JobRows.enqueuePhase2(tx, inputWatermark);
            return null;
        });
    }

    @Override
    public List<Stage1Output> phase2InputSelection(int limit, int maxUnusedDays, Instant now) {
        Objects.requireNonNull(now, "now");
        return state.read("select Phase 2 inputs", tx -> OutputRows.phase2Selection(tx, limit, maxUnusedDays, now));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here {@code FAIR} reads the tenant's eligible memories' ranking columns in one read
     * transaction, ranks them in Java with {@link dev.mnemo.spi.FairSelection} and loads the chosen
     * rows in the same transaction; a memory counts as selected before when the tenant's
     * {@code consolidated_threads} records it or it is in the current selection.
     */
    @Override
    public List<Stage1Output> phase2InputSelection(Phase2SelectionParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        if (params.policy() == SelectionPolicy.CODEX) {
            return phase2InputSelection(params.limit(), params.maxUnusedDays(), now);
        }
        return state.read("select Phase 2 inputs fairly", tx -> OutputRows.fairSelection(tx, params, now));
    }

    @Override
    public List<Stage1Output> listStage1OutputsForGlobal(int limit) {
        return state.read("list memories", tx -> OutputRows.listForGlobal(tx, limit));
    }

    @Override
    public void replacePhase2Selection(List<SelectedInput> selected) {
        List<SelectedInput> inputs = List.copyOf(Objects.requireNonNull(selected, "selected"));
        state.write("replace the Phase 2 selection", tx -> {
            OutputRows.replaceSelection(tx, inputs);
            return null;
        });
    }
}
