package dev.mnemo.internal.engine;

import dev.mnemo.AgentGraph;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.spi.SpawnGraphStore;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link AgentGraph} over the store's {@code thread_spawn_edges}. A store that keeps no spawn graph
 * answers every call with its {@link UnsupportedOperationException}.
 */
final class StoreAgentGraph implements AgentGraph {

    private final SpawnGraphStore store;

    StoreAgentGraph(SpawnGraphStore store) {
        this.store = store;
    }

    @Override
    public void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status) {
        requireId(parentThreadId, "parentThreadId");
        requireId(childThreadId, "childThreadId");
        store.upsertSpawnEdge(parentThreadId, childThreadId, Objects.requireNonNull(status, "status"));
    }

    @Override
    public void setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status) {
        requireId(childThreadId, "childThreadId");
        store.setSpawnEdgeStatus(childThreadId, Objects.requireNonNull(status, "status"));
    }

    @Override
    public Optional<String> parent(String childThreadId) {
        requireId(childThreadId, "childThreadId");
        return store.spawnParent(childThreadId);
    }

    @Override
    public List<String> children(String parentThreadId, Optional<SpawnEdgeStatus> status) {
        requireId(parentThreadId, "parentThreadId");
        return store.spawnChildren(parentThreadId, Objects.requireNonNull(status, "status"));
    }

    @Override
    public List<String> descendants(String threadId, Optional<SpawnEdgeStatus> status) {
        requireId(threadId, "threadId");
        return store.spawnDescendants(threadId, Objects.requireNonNull(status, "status"));
    }

    private static void requireId(String id, String name) {
        Objects.requireNonNull(id, name);
        if (id.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
