package dev.mnemo.workspace.git;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Visits the tracked files under a root — regular files and symlinks, links never followed — in
 * {@link String#compareTo} order of their {@code /}-separated relative paths, with one
 * {@code lstat} per entry. Each folder's names are sorted with a folder's name compared as if
 * followed by {@code /} (git's tree order rule); since every path under a folder shares that
 * prefix, visiting the sorted names depth first yields the full paths in order. Every {@code .git}
 * entry and the top-level {@link WorkingFiles#DIFF_FILE} are skipped without being read.
 */
final class WorkingTreeWalk {

    /** Receives one tracked file. */
    @FunctionalInterface
    interface Visitor {
        void visit(String path, Path file, FileStat stat) throws IOException;
    }

    /** A folder entry: its sort key (the name, plus {@code /} for a folder), where it is and its stat. */
    private record Entry(String key, Path path, FileStat stat) {}

    private static final Comparator<Entry> ORDER = (a, b) -> a.key().compareTo(b.key());

    private final boolean unix;
    private final Visitor visitor;

    private WorkingTreeWalk(Path root, Visitor visitor) {
        this.unix = FileStat.hasUnixView(root);
        this.visitor = visitor;
    }

    /** Visits every tracked file under the folder {@code root}. */
    static void walk(Path root, Visitor visitor) throws IOException {
        new WorkingTreeWalk(root, visitor).folder(root, "");
    }

    private void folder(Path dir, String prefix) throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                String name = child.getFileName().toString();
                if (name.equals(WorkingFiles.GIT_DIR) || (prefix.isEmpty() && name.equals(WorkingFiles.DIFF_FILE))) {
                    continue;
                }
                FileStat stat = FileStat.of(child, unix);
                if (stat.isDirectory()) {
                    entries.add(new Entry(name + '/', child, stat));
                } else if (stat.isTracked()) {
                    entries.add(new Entry(name, child, stat));
                }
            }
        }
        entries.sort(ORDER);
        for (Entry entry : entries) {
            if (entry.stat().isDirectory()) {
                folder(entry.path(), prefix + entry.key());
            } else {
                visitor.visit(prefix + entry.key(), entry.path(), entry.stat());
            }
        }
    }
}
