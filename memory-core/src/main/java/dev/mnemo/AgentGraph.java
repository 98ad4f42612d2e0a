package dev.mnemo;

import java.util.List;
import java.util.Optional;

/**
 * Which thread spawned which sub-agent thread, with Codex's semantics
 * ({@code thread_spawn_edges}).
 */
public interface AgentGraph {

    /** Records or replaces the edge to {@code childThreadId} (keyed by the child). */
    void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status);

    /** Changes the status of the edge to a child; a missing child is a no-op. */
    void setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status);

    /** The thread that spawned {@code childThreadId}, if any. */
    Optional<String> parent(String childThreadId);

    /** The direct children of a thread, ordered by id, optionally only those with {@code status}. */
    List<String> children(String parentThreadId, Optional<SpawnEdgeStatus> status);

    /**
     * Every descendant, breadth first (by depth, then id); the status filter applies to every edge
     * walked. A cycle never hangs the walk.
     */
    List<String> descendants(String threadId, Optional<SpawnEdgeStatus> status);
}
