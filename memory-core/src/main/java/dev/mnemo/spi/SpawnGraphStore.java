package dev.mnemo.spi;

import dev.mnemo.SpawnEdgeStatus;
import java.util.List;
import java.util.Optional;

/**
 * The spawn graph, Codex's {@code thread_spawn_edges}: which thread spawned which sub-agent thread.
 * Every method fails with {@link UnsupportedOperationException} by default, for stores that keep
 * no such graph.
 *
 * <p>One role of a {@link MemoryStore}: a store implements it as part of the composite, and a
 * component that needs only this role asks for only this interface. The rules of the composite
 * apply (safe for several threads and processes; {@code now} is the engine's clock; failures are
 * {@link dev.mnemo.MemoryStoreException}s).
 */
public interface SpawnGraphStore {

    /**
     * Records the edge from {@code parentThreadId} to {@code childThreadId}, or replaces the child's
     * edge (parent and status both): the child is the key, so a thread has at most one parent.
     * {@link ThreadStore#deleteThread} removes every edge the thread is part of, as parent or as child.
     *
     * @param parentThreadId the thread that spawned the child
     * @param childThreadId the sub-agent thread
     * @param status the edge's status
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status) {
        throw noSpawnGraph();
    }

    /**
     * Sets the status of the edge to {@code childThreadId}; a child with no edge is left alone.
     *
     * @param childThreadId the sub-agent thread whose edge to change
     * @param status the edge's new status
     * @return false when there was no such edge
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default boolean setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status) {
        throw noSpawnGraph();
    }

    /**
     * The direct children of {@code parentThreadId}, ordered by id (binary order), only those whose
     * edge has {@code status} when one is given.
     *
     * @param parentThreadId the parent thread
     * @param status only children whose edge has this status; every child when empty
     * @return the children's thread ids; empty when there are none
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default List<String> spawnChildren(String parentThreadId, Optional<SpawnEdgeStatus> status) {
        throw noSpawnGraph();
    }

    /**
     * Every thread below {@code threadId}, breadth first: by depth, then by id. With a status, an
     * edge of another status is not walked, so it hides its whole subtree. Never returns
     * {@code threadId} itself, and ends even when the edges form a cycle.
     *
     * @param threadId the thread at the top
     * @param status only walk edges of this status; every edge when empty
     * @return the descendants' thread ids, breadth first; empty when there are none
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default List<String> spawnDescendants(String threadId, Optional<SpawnEdgeStatus> status) {
        throw noSpawnGraph();
    }

    /**
     * The thread that spawned {@code childThreadId}, whatever the edge's status.
     *
     * @param childThreadId the sub-agent thread
     * @return the parent's thread id, or empty when the thread has no parent
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default Optional<String> spawnParent(String childThreadId) {
        throw noSpawnGraph();
    }

    private UnsupportedOperationException noSpawnGraph() {
        return new UnsupportedOperationException(getClass().getName() + " keeps no spawn graph "
                + "(thread_spawn_edges), so sub-agent threads cannot be listed, deleted or polluted with their parent");
    }
}
