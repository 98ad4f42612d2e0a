package dev.mnemo.testkit.contract;

import static dev.mnemo.SpawnEdgeStatus.CLOSED;
import static dev.mnemo.SpawnEdgeStatus.OPEN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.SpawnEdgeStatus;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The spawn graph ({@code thread_spawn_edges}): Codex's agent-graph store tests
 * ({@code local_store_*}) and state tests ({@code thread_spawn_*}) ported, plus Mnemo's own rules:
 * a cycle never hangs the descendants walk, and deleting a thread removes its edges.
 *
 * <p>One role's contract: a store that serves this role extends it alone (its fixtures also write
 * thread rows); {@link MemoryStoreContract} runs it, with every other role, for a whole store.
 */
public abstract class SpawnGraphStoreContract extends MemoryStoreContractSupport {

    private static final Optional<SpawnEdgeStatus> ANY = Optional.empty();

    @Test
    void children_areListedById_withAndWithoutAStatusFilter() {
        store.upsertSpawnEdge("root", "child-c", OPEN);
        store.upsertSpawnEdge("root", "child-a", CLOSED);
        store.upsertSpawnEdge("root", "child-b", OPEN);
        store.upsertSpawnEdge("other", "child-z", OPEN);

        assertThat(store.spawnChildren("root", ANY)).containsExactly("child-a", "child-b", "child-c");
        assertThat(store.spawnChildren("root", Optional.of(OPEN))).containsExactly("child-b", "child-c");
        assertThat(store.spawnChildren("root", Optional.of(CLOSED))).containsExactly("child-a");
        assertThat(store.spawnChildren("nobody", ANY)).isEmpty();
    }

    @Test
    void edgeStatus_tracksCloseAndReopen() {
        store.upsertSpawnEdge("parent", "child", OPEN);
        assertThat(store.spawnChildren("parent", Optional.of(OPEN))).containsExactly("child");

        assertThat(store.setSpawnEdgeStatus("child", CLOSED)).isTrue();
        assertThat(store.spawnChildren("parent", Optional.of(OPEN))).isEmpty();
        assertThat(store.spawnChildren("parent", Optional.of(CLOSED))).containsExactly("child");

        store.setSpawnEdgeStatus("child", OPEN);
        assertThat(store.spawnChildren("parent", Optional.of(OPEN))).containsExactly("child");
    }

    @Test
    void setStatus_ofAChildWithNoEdge_isANoOp() {
        assertThat(store.setSpawnEdgeStatus("missing", CLOSED)).isFalse();

        assertThat(store.spawnParent("missing")).isEmpty();
        assertThat(store.spawnChildren("missing", ANY)).isEmpty();
    }

    @Test
    void upsert_isKeyedByTheChild_soASecondParentReplacesTheFirst() {
        store.upsertSpawnEdge("first", "child", OPEN);
        store.upsertSpawnEdge("second", "child", CLOSED);

        assertThat(store.spawnChildren("first", ANY)).isEmpty();
        assertThat(store.spawnChildren("second", ANY)).containsExactly("child");
        assertThat(store.spawnChildren("second", Optional.of(CLOSED))).containsExactly("child");
        assertThat(store.spawnParent("child")).contains("second");
    }

    /** Codex's tree of {@code local_store_lists_descendants_breadth_first_with_status_filters}. */
    @Test
    void descendants_areBreadthFirst_andTheStatusFilterAppliesToEveryEdgeWalked() {
        store.upsertSpawnEdge("20", "21", OPEN);
        store.upsertSpawnEdge("20", "22", OPEN);
        store.upsertSpawnEdge("20", "25", CLOSED);
        store.upsertSpawnEdge("21", "23", CLOSED);
        store.upsertSpawnEdge("22", "24", OPEN);
        store.upsertSpawnEdge("25", "26", CLOSED);

        assertThat(store.spawnDescendants("20", ANY)).containsExactly("21", "22", "25", "23", "24", "26");
        assertThat(store.spawnDescendants("20", Optional.of(OPEN))).containsExactly("21", "22", "24");
        assertThat(store.spawnDescendants("20", Optional.of(CLOSED))).containsExactly("25", "26");
        assertThat(store.spawnDescendants("22", ANY)).containsExactly("24");
        assertThat(store.spawnDescendants("24", ANY)).isEmpty();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void descendants_endWhenTheEdgesFormACycle() {
        store.upsertSpawnEdge("a", "b", OPEN);
        store.upsertSpawnEdge("b", "c", OPEN);
        store.upsertSpawnEdge("c", "a", OPEN);
        store.upsertSpawnEdge("c", "d", OPEN);
        store.upsertSpawnEdge("self", "self", OPEN);

        assertThat(store.spawnDescendants("a", ANY)).containsExactly("b", "c", "d");
        assertThat(store.spawnDescendants("b", Optional.of(OPEN))).containsExactly("c", "a", "d");
        assertThat(store.spawnDescendants("self", ANY)).isEmpty();
    }

    @Test
    void deleteThread_removesTheEdgesItIsPartOf_asParentAndAsChild() {
        addThread("middle");
        store.upsertSpawnEdge("root", "middle", OPEN);
        store.upsertSpawnEdge("middle", "leaf", OPEN);
        store.upsertSpawnEdge("root", "sibling", OPEN);

        store.deleteThread("middle", NOW);

        assertThat(store.spawnChildren("root", ANY)).containsExactly("sibling");
        assertThat(store.spawnParent("leaf")).isEmpty();
        assertThat(store.spawnDescendants("root", ANY)).containsExactly("sibling");
    }

    @Test
    void spawnGraph_isSharedByTwoHandlesOnOneStore() {
        store.upsertSpawnEdge("parent", "child", OPEN);

        try (var second = openStore(dir)) {
            assertThat(second.spawnChildren("parent", ANY)).isEqualTo(List.of("child"));
            second.setSpawnEdgeStatus("child", CLOSED);
        }
        assertThat(store.spawnChildren("parent", Optional.of(CLOSED))).containsExactly("child");
    }
}
