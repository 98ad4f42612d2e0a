package dev.mnemo.internal.rollout;

import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.spi.SpawnGraphStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recorder's side of the spawn graph: a sub-agent session's edge is {@code open} from the moment
 * its recording starts and {@code closed} when its session closes (Codex closes it in
 * {@code close_agent}). As in Codex, a failure to write the edge is logged and the session goes on.
 */
final class SpawnEdges {

    private static final Logger LOG = LoggerFactory.getLogger(SpawnEdges.class);

    private SpawnEdges() {
    }

    /** Upserts the edge {@code parent -> child} with {@code status} (a re-opened child's edge opens again). */
    static void record(SpawnGraphStore store, String parent, String child, SpawnEdgeStatus status) {
        try {
            store.upsertSpawnEdge(parent, child, status);
        } catch (UnsupportedOperationException e) {
            LOG.debug("sub-agent session {} of {}: {}", child, parent, e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("sub-agent session {} of {}: recording its spawn edge as {} failed", child, parent,
                    status.name().toLowerCase(java.util.Locale.ROOT), e);
        }
    }
}
