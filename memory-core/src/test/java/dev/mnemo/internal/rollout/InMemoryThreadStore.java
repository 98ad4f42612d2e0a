package dev.mnemo.internal.rollout;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.ModelFailure;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A test double of {@link MemoryStore} for thread rows only (the SQLite store is built
 * elsewhere); every other operation throws. Like every store, a polluted thread stays polluted
 * whatever a later upsert says. Public for one reason: memory-integration-tests runs the test kit's
 * {@code ThreadStoreContract} against it (memory-core cannot depend on the test kit).
 */
public final class InMemoryThreadStore implements MemoryStore {

    final Map<String, ThreadInfo> threads = new LinkedHashMap<>();
    final List<ThreadInfo> upserts = new ArrayList<>();
    final List<String> polluted = new ArrayList<>();

    @Override
    public synchronized void upsertThread(ThreadInfo thread) {
        ThreadInfo stored = threads.get(thread.id());
        // As the SPI says: the stored mode is never loosened (polluted > disabled > enabled).
        threads.put(thread.id(), stored == null || stored.memoryMode().compareTo(thread.memoryMode()) <= 0 ? thread
                : thread.withMemoryMode(stored.memoryMode()));
        upserts.add(thread);
    }

    @Override
    public synchronized Optional<ThreadInfo> thread(String threadId) {
        return Optional.ofNullable(threads.get(threadId));
    }

    @Override
    public synchronized List<ThreadInfo> threads() {
        List<ThreadInfo> all = new ArrayList<>(threads.values());
        all.sort(Comparator.comparing(ThreadInfo::updatedAt).reversed());
        return all;
    }

    @Override
    public synchronized boolean setThreadMemoryMode(String threadId, MemoryMode mode, Instant now) {
        ThreadInfo thread = threads.get(threadId);
        if (thread == null) {
            return false;
        }
        threads.put(threadId, thread.withMemoryMode(mode));
        return true;
    }

    @Override
    public synchronized boolean markThreadPolluted(String threadId, Instant now) {
        polluted.add(threadId);
        ThreadInfo thread = threads.get(threadId);
        if (thread == null || thread.memoryMode() == MemoryMode.POLLUTED) {
            return false;
        }
        threads.put(threadId, thread.withMemoryMode(MemoryMode.POLLUTED));
        return true;
    }

    private static UnsupportedOperationException notHere() {
        return new UnsupportedOperationException("InMemoryThreadStore only keeps thread rows");
    }

    @Override
    public boolean deleteThread(String threadId, Instant now) {
        throw notHere();
    }

    @Override
    public List<Stage1Claim> claimStage1Jobs(Stage1ClaimParams params, Instant now) {
        throw notHere();
    }

    @Override
    public JobClaim tryClaimStage1Job(String threadId, String workerId, Instant sourceUpdatedAt, Duration lease,
            int maxRunning, Instant now) {
        throw notHere();
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now) {
        throw notHere();
    }

    @Override
    public boolean markStage1SucceededNoOutput(String threadId, String ownershipToken, Instant now) {
        throw notHere();
    }

    @Override
    public boolean markStage1Failed(String threadId, String ownershipToken, String reason, Duration retryDelay,
            Instant now) {
        throw notHere();
    }

    @Override
    public boolean releaseStage1AfterModelFailure(String threadId, String ownershipToken, ModelFailure failure,
            Duration retryDelay, Instant now) {
        throw notHere();
    }

    @Override
    public Optional<Stage1Output> stage1Output(String threadId) {
        throw notHere();
    }

    @Override
    public JobClaim tryClaimPhase2Job(String workerId, Duration lease, Instant now) {
        throw notHere();
    }

    @Override
    public boolean heartbeatPhase2Job(String ownershipToken, Duration lease, Instant now) {
        throw notHere();
    }

    @Override
    public boolean markPhase2Succeeded(String ownershipToken, long completedWatermark, List<SelectedInput> selected,
            Instant now) {
        throw notHere();
    }

    @Override
    public boolean markPhase2Failed(String ownershipToken, String reason, Duration retryDelay, Instant now) {
        throw notHere();
    }

    @Override
    public boolean markPhase2FailedIfUnowned(String ownershipToken, String reason, Duration retryDelay, Instant now) {
        throw notHere();
    }

    @Override
    public void enqueuePhase2(long inputWatermark) {
        throw notHere();
    }

    @Override
    public List<Stage1Output> phase2InputSelection(int limit, int maxUnusedDays, Instant now) {
        throw notHere();
    }

    @Override
    public List<Stage1Output> listStage1OutputsForGlobal(int limit) {
        throw notHere();
    }

    @Override
    public void replacePhase2Selection(List<SelectedInput> selected) {
        throw notHere();
    }

    @Override
    public int recordUsage(List<String> threadIds, Instant now) {
        throw notHere();
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now) {
        throw notHere();
    }

    @Override
    public int releaseJobs(String workerId, String reason, Instant now) {
        throw notHere();
    }

    @Override
    public void clearMemoryData() {
        throw notHere();
    }

    @Override
    public MemoryStatus status(Instant now) {
        throw notHere();
    }

    @Override
    public void close() {}
}
