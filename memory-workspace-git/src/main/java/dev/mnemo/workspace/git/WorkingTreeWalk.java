package dev.mnemo.workspace.git;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Visits the tracked files under a root — regular files and symlinks, links never followed — in
 * {@link String#compareTo} order of their {@code /}-separated relative paths, with one
 * {@code lstat} per entry. Each folder's names are sorted with a folder's name compared as if
 * followed by {@code /} (git's tree order rule); since every path under a folder shares that
 * prefix, visiting the sorted names depth first yields the full paths in order. Every {@code .git}
 * entry and the top-level {@link WorkingFiles#DIFF_FILE} are skipped without being read.
 *
 * <p>A folder the file system lists with exactly the same sort keys, in the same order, as on the
 * previous walk is put in order with the permutation found then instead of being sorted again.
 */
final class WorkingTreeWalk {

    /** Receives one tracked file. */
    @FunctionalInterface
    interface Visitor {
        void visit(String path, Path file, FileStat stat) throws IOException;
    }

    /** A folder entry: its sort key (the name, plus {@code /} for a folder), where it is and its stat. */
    private record Entry(String key, Path path, FileStat stat, int listed) {}

    /**
     * A folder's sort keys as listed, the listing positions in sorted order and the relative paths
     * in sorted order (kept so an unchanged folder builds no path strings).
     */
    private record Order(String[] keys, int[] sorted, String[] paths) {}

    private static final Comparator<Entry> BY_KEY = (a, b) -> a.key().compareTo(b.key());

    private final Path root;
    private final boolean unix;
    /** The orders of the last walk, by folder prefix. */
    private Map<String, Order> orders = Map.of();

    WorkingTreeWalk(Path root) {
        this.root = root;
        this.unix = FileStat.hasUnixView(root);
    }

    /** Visits every tracked file under the root, which must be a folder. */
    void walk(Visitor visitor) throws IOException {
        Map<String, Order> seen = new HashMap<>();
        folder(root, "", visitor, seen);
        orders = seen;
    }

    private void folder(Path dir, String prefix, Visitor visitor, Map<String, Order> seen) throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                String name = child.getFileName().toString();
                if (name.equals(WorkingFiles.GIT_DIR) || (prefix.isEmpty() && name.equals(WorkingFiles.DIFF_FILE))) {
                    continue;
                }
                FileStat stat = FileStat.of(child, unix);
                if (stat.isDirectory()) {
                    entries.add(new Entry(name + '/', child, stat, entries.size()));
                } else if (stat.isTracked()) {
                    entries.add(new Entry(name, child, stat, entries.size()));
                }
            }
        }
        Order order = inOrder(prefix, entries, seen);
        for (int i = 0; i < order.sorted().length; i++) {
            Entry entry = entries.get(order.sorted()[i]);
            if (entry.stat().isDirectory()) {
                folder(entry.path(), order.paths()[i], visitor, seen);
            } else {
                visitor.visit(order.paths()[i], entry.path(), entry.stat());
            }
        }
    }

    /** The key order of {@code entries}, reused from the last walk when the folder listed the same keys. */
    private Order inOrder(String prefix, List<Entry> entries, Map<String, Order> seen) {
        String[] keys = new String[entries.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = entries.get(i).key();
        }
        Order before = orders.get(prefix);
        if (before == null || !Arrays.equals(before.keys(), keys)) {
            List<Entry> sorted = new ArrayList<>(entries);
            sorted.sort(BY_KEY);
            int[] positions = new int[keys.length];
            String[] paths = new String[keys.length];
            for (int i = 0; i < positions.length; i++) {
                positions[i] = sorted.get(i).listed();
                paths[i] = prefix + sorted.get(i).key();
            }
            before = new Order(keys, positions, paths);
        }
        seen.put(prefix, before);
        return before;
    }
}
