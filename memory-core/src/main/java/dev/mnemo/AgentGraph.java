package dev.mnemo;

import java.util.List;
import java.util.Optional;

/**
 * Which thread spawned which sub-agent thread, with Codex's semantics
 * ({@code thread_spawn_edges}).
 */
public interface AgentGraph {

    /**
     * Records or replaces the edge to {@code childThreadId} (keyed by the child, so a thread has at
     * most one parent; parent and status are both replaced).
     *
     * @param parentThreadId the thread that spawned the sub-agent; not blank
     * @param childThreadId the sub-agent's thread; not blank
     * @param status whether the sub-agent is still running or done
     * @throws IllegalArgumentException when an id is blank
     * @throws UnsupportedOperationException when the store keeps no spawn graph
     */
    void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status);

    /**
     * Changes the status of the edge to a child; a missing child is a no-op.
     *
     * @param childThreadId the sub-agent's thread, whose edge is changed; not blank
     * @param status the edge's new status
     * @throws IllegalArgumentException when the id is blank
     * @throws UnsupportedOperationException when the store keeps no spawn graph
     */
    void setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status);

    /**
     * The thread that spawned {@code childThreadId}, if any, whatever the edge's status.
     *
     * @param childThreadId the sub-agent's thread; not blank
     * @return the parent's thread id, or empty when no edge leads to the child
     * @throws IllegalArgumentException when the id is blank
     * @throws UnsupportedOperationException when the store keeps no spawn graph
     */
    Optional<String> parent(String childThreadId);

    /**
     * The direct children of a thread, ordered by id, optionally only those with {@code status}.
     *
     * @param parentThreadId the thread whose children are listed; not blank
     * @param status only edges with this status, or empty for every edge
     * @return the children's thread ids, ordered by id; empty when there are none
     * @throws IllegalArgumentException when the id is blank
     * @throws UnsupportedOperationException when the store keeps no spawn graph
     */
    List<String> children(String parentThreadId, Optional<SpawnEdgeStatus> status);

    /**
     * Every descendant, breadth first (by depth, then id); the status filter applies to every edge
     * walked, so an edge of another status hides its whole subtree. A cycle never hangs the walk.
     *
     * @param threadId the thread whose descendants are listed (never part of the result); not blank
     * @param status only walk edges with this status, or empty to walk every edge
     * @return the descendants' thread ids, breadth first; empty when there are none
     * @throws IllegalArgumentException when the id is blank
     * @throws UnsupportedOperationException when the store keeps no spawn graph
     */
    List<String> descendants(String threadId, Optional<SpawnEdgeStatus> status);
}
