package dev.mnemo.benchmarks;

import dev.mnemo.AgentGraph;
import dev.mnemo.MemoryEngine;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.store.sqlite.SqliteMemoryStoreProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code spawn_descendants}: {@code engine.agentGraph().descendants(root, Optional.empty())} over a
 * spawn tree of {@link #TREE_NODES} descendants (each thread spawning 4 to 10 sub-agents, breadth
 * first, one edge in five closed), in a table that also holds {@link #OTHER_TREES} unrelated trees
 * of {@link #OTHER_TREE_NODES}. Every edge is written through {@code upsertSpawnEdge}. Reference: the
 * store's recursive query run with plain JDBC on the same {@code mnemo.sqlite}; setup checks that
 * both return the same ids in the same order.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SpawnGraphBenchmarks {

    static final int TREE_NODES = 10_000;
    static final int OTHER_TREES = 20;
    static final int OTHER_TREE_NODES = 250;

    /** The store's descendants walk, exactly as it runs it (SpawnEdgeQueries.DESCENDANTS). */
    static final String DESCENDANTS = """
            WITH RECURSIVE subtree(child_thread_id, depth) AS (
                SELECT child_thread_id, 1 FROM thread_spawn_edges
                WHERE parent_thread_id = ?1 AND child_thread_id <> ?1 AND (?2 IS NULL OR status = ?2)
                UNION ALL
                SELECT e.child_thread_id, s.depth + 1
                FROM thread_spawn_edges e JOIN subtree s ON e.parent_thread_id = s.child_thread_id
                WHERE e.child_thread_id <> ?1 AND (?2 IS NULL OR e.status = ?2)
            )
            SELECT child_thread_id FROM subtree ORDER BY depth ASC, child_thread_id ASC""";

    /** A home whose spawn graph holds the tree, an engine on it and a plain connection to its database. */
    @State(Scope.Benchmark)
    public static class Tree {
        Path home;
        MemoryEngine engine;
        Connection jdbc;
        String root;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            home = BenchSupport.scratch("spawn");
            engine = MemoryEngine.builder().home(home).build();
            Random random = new Random(10_000);
            root = id("root", 0);
            grow(engine.agentGraph(), root, TREE_NODES, random);
            for (int t = 0; t < OTHER_TREES; t++) {
                grow(engine.agentGraph(), id("other-root", t), OTHER_TREE_NODES, random);
            }
            jdbc = DriverManager.getConnection("jdbc:sqlite:"
                    + home.resolve(SqliteMemoryStoreProvider.DATABASE_FILE_NAME));
            List<String> viaEngine = engine.agentGraph().descendants(root, Optional.empty());
            List<String> viaJdbc = descendants(jdbc, root);
            if (viaEngine.size() != TREE_NODES || !viaEngine.equals(viaJdbc)) {
                throw new IllegalStateException("the engine gave " + viaEngine.size() + " descendants, plain JDBC "
                        + viaJdbc.size() + ", expected " + TREE_NODES + " each, in the same order");
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws SQLException {
            jdbc.close();
            engine.close();
            BenchSupport.deleteRecursively(home);
        }
    }

    static String id(String prefix, int i) {
        return UUID.nameUUIDFromBytes((prefix + "-" + i).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** Spawns {@code nodes} descendants under {@code root}, breadth first, 4 to 10 children a thread. */
    private static void grow(AgentGraph graph, String root, int nodes, Random random) {
        Deque<String> frontier = new ArrayDeque<>(List.of(root));
        int spawned = 0;
        while (spawned < nodes) {
            String parent = frontier.removeFirst();
            int children = 4 + random.nextInt(7);
            for (int c = 0; c < children && spawned < nodes; c++) {
                String child = id(root, spawned++);
                graph.upsertSpawnEdge(parent, child, random.nextInt(5) == 0 ? SpawnEdgeStatus.CLOSED : SpawnEdgeStatus.OPEN);
                frontier.addLast(child);
            }
        }
    }

    private static List<String> descendants(Connection jdbc, String root) throws SQLException {
        try (PreparedStatement query = jdbc.prepareStatement(DESCENDANTS)) {
            query.setString(1, root);
            query.setNull(2, java.sql.Types.VARCHAR);
            List<String> ids = new ArrayList<>(TREE_NODES);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
            return ids;
        }
    }

    @Benchmark
    public List<String> spawnDescendants(Tree tree) {
        return tree.engine.agentGraph().descendants(tree.root, Optional.empty());
    }

    @Benchmark
    public List<String> spawnDescendantsReference(Tree tree) throws SQLException {
        return descendants(tree.jdbc, tree.root);
    }
}
