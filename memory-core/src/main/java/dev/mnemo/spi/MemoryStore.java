package dev.mnemo.spi;

import java.util.Optional;

/**
 * The pipeline's state: threads, stage-1 memories and jobs with leases. The semantics are Codex's
 * state database ({@code codex-rs/state/src/runtime/memories.rs}); Mnemo forgets harder (see
 * {@link ThreadStore#markThreadPolluted}).
 *
 * <p>Implementations must be safe for several threads and for several processes sharing one store:
 * a claim is atomic, and every completion is guarded by the ownership token the claim returned, so
 * a worker that lost its lease changes nothing. Every method takes the current time as
 * {@code now} so leases, windows and backoffs follow the engine's {@link java.time.Clock}. Times in
 * {@code stage1_outputs} and {@code jobs} have whole-second precision.
 *
 * <p>Failures are {@link dev.mnemo.MemoryStoreException}s naming the database.
 *
 * <p>The composite only gathers the roles ({@link ThreadStore}, {@link SpawnGraphStore},
 * {@link Stage1Store}, {@link ApprovalStore}, {@link Phase2Store}, {@link ForgetStore},
 * {@link MaintenanceStore}) and the stores kept beside it (goals, message history, thread logs);
 * each role can be implemented and tested on its own, and the engine's components each ask for
 * the roles they use.
 */
public interface MemoryStore extends ThreadStore, SpawnGraphStore, Stage1Store, ApprovalStore, Phase2Store,
        ForgetStore, MaintenanceStore, AutoCloseable {

    /**
     * The thread goals kept beside this store (the SQLite store keeps them in their own file,
     * {@code goals.sqlite}, opened on first use and closed with the store). The default has none.
     *
     * @return the goal store, open for as long as this store is
     * @throws UnsupportedOperationException when this store keeps no goals
     */
    default GoalStore goals() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no thread goals");
    }

    /**
     * The message history kept by this store, when it keeps one (fleet mode keeps it per tenant in
     * its database). The default is empty: the engine keeps {@code <home>/history.jsonl} itself.
     *
     * @return the message history, or empty when the engine keeps its own file
     */
    default Optional<HistoryStore> messageHistory() {
        return Optional.empty();
    }

    /**
     * The thread logs kept by this store, when it keeps them (fleet mode keeps them per tenant in its
     * database); the engine writes them through its bounded queue and closes them with itself. The
     * default is empty: an engine that opened its store itself keeps them beside it
     * ({@link MemoryStoreProvider#openThreadLogs}), any other keeps none.
     *
     * @return the thread logs, or empty when this store keeps none
     */
    default Optional<ThreadLogStore> threadLogs() {
        return Optional.empty();
    }

    @Override
    void close();
}
