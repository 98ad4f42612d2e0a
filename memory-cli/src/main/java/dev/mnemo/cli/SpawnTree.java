package dev.mnemo.cli;

import dev.mnemo.AgentGraph;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadInfo;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code mnemo threads --tree}: the registered threads as a forest, each sub-agent thread under the
 * thread that spawned it with its edge's status. A thread nobody spawned is a root; a child with no
 * thread row (an ephemeral sub-agent) is shown by its id alone. A cycle is cut where it closes.
 */
final class SpawnTree {

    /** One node: a thread and the edge that leads to it (none for a root). */
    private record Node(String id, Optional<SpawnEdgeStatus> edge, Optional<ThreadInfo> thread, List<Node> children) {
    }

    private final List<Node> roots;

    private SpawnTree(List<Node> roots) {
        this.roots = roots;
    }

    /**
     * Reads the graph below every registered thread: each thread's children once (kept for the
     * walk), and the open ones of each thread that has any.
     */
    static SpawnTree of(AgentGraph graph, List<ThreadInfo> threads) {
        Map<String, ThreadInfo> byId = new LinkedHashMap<>();
        threads.forEach(t -> byId.put(t.id(), t));
        Map<String, List<String>> childrenOf = new HashMap<>();
        Set<String> spawned = new HashSet<>();
        for (ThreadInfo thread : threads) {
            spawned.addAll(childrenOf.computeIfAbsent(thread.id(), id -> graph.children(id, Optional.empty())));
        }
        Walk walk = new Walk(graph, byId, childrenOf, new HashSet<>());
        List<Node> roots = new ArrayList<>();
        for (ThreadInfo thread : threads) {
            if (!spawned.contains(thread.id())) {
                roots.add(walk.node(thread.id(), Optional.empty()));
            }
        }
        // Threads only reachable through a cycle have no root: show each cycle from its first thread.
        for (ThreadInfo thread : threads) {
            if (!walk.seen().contains(thread.id())) {
                roots.add(walk.node(thread.id(), Optional.empty()));
            }
        }
        return new SpawnTree(roots);
    }

    /** One walk down the graph; {@code childrenOf} holds what was read already (unregistered children are read here). */
    private record Walk(AgentGraph graph, Map<String, ThreadInfo> byId, Map<String, List<String>> childrenOf,
            Set<String> seen) {

        Node node(String id, Optional<SpawnEdgeStatus> edge) {
            seen.add(id);
            List<Node> children = new ArrayList<>();
            List<String> all = childrenOf.computeIfAbsent(id, parent -> graph.children(parent, Optional.empty()));
            List<String> open = all.isEmpty() ? List.of() : graph.children(id, Optional.of(SpawnEdgeStatus.OPEN));
            for (String child : all) {
                if (seen.contains(child)) {
                    continue;
                }
                SpawnEdgeStatus status = open.contains(child) ? SpawnEdgeStatus.OPEN : SpawnEdgeStatus.CLOSED;
                children.add(node(child, Optional.of(status)));
            }
            return new Node(id, edge, Optional.ofNullable(byId.get(id)), children);
        }
    }

    void print(PrintWriter out, boolean json) {
        if (json) {
            JsonOut.print(out, roots.stream().map(SpawnTree::json).toList());
            return;
        }
        if (roots.isEmpty()) {
            out.println("no threads registered (add --sync to scan the sessions folder)");
        }
        for (Node root : roots) {
            print(out, root, "");
        }
    }

    private static void print(PrintWriter out, Node node, String indent) {
        String edge = node.edge().map(s -> "[" + s.name().toLowerCase(Locale.ROOT) + "] ").orElse("");
        String mode = node.thread().map(t -> t.memoryMode().dbValue() + " " + t.source()).orElse("(no thread row)");
        out.println(indent + (indent.isEmpty() ? "" : "└─ ") + edge + node.id() + "  " + mode);
        for (Node child : node.children()) {
            print(out, child, indent.isEmpty() ? "   " : indent + "   ");
        }
    }

    private static Object json(Node node) {
        return JsonOut.object("id", node.id(),
                "status", node.edge().map(s -> s.name().toLowerCase(Locale.ROOT)).orElse(null),
                "memory_mode", node.thread().map(t -> t.memoryMode().dbValue()).orElse(null),
                "source", node.thread().map(ThreadInfo::source).orElse(null),
                "children", node.children().stream().map(SpawnTree::json).toList());
    }
}
