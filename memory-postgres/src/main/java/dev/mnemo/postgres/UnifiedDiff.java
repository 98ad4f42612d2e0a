package dev.mnemo.postgres;

import dev.mnemo.spi.WorkspaceDiff;
import dev.mnemo.spi.WorkspaceDiff.Change;
import dev.mnemo.spi.WorkspaceDiff.Status;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * A {@code git diff}-style patch of changed paths, as {@code GitMemoryWorkspace} writes it (which
 * uses JGit; this module does not): {@code diff --git} header, mode lines, {@code ---}/{@code +++}
 * names ({@code /dev/null} for a missing side), hunks with {@value #CONTEXT} lines of context
 * from a Myers line diff, and no {@code index} line. {@link #compare} gives the changes between two
 * sets of workspace files with their patch.
 */
final class UnifiedDiff {

    static final int CONTEXT = 3;
    private static final String MODE = "100644";
    private static final String NO_NEWLINE = "\\ No newline at end of file\n";

    /** A run of lines {@code [beginA, endA)} replaced by {@code [beginB, endB)}. */
    private record Edit(int beginA, int endA, int beginB, int endB) {
    }

    /** The lines of one side: each without its {@code \n}, and whether the last one lacked it. */
    private record Lines(List<String> lines, boolean missingNewlineAtEnd) {
        static Lines of(byte[] bytes) {
            String text = new String(bytes, StandardCharsets.UTF_8);
            List<String> lines = new ArrayList<>();
            int start = 0;
            while (start < text.length()) {
                int newline = text.indexOf('\n', start);
                if (newline < 0) {
                    lines.add(text.substring(start));
                    return new Lines(lines, true);
                }
                lines.add(text.substring(start, newline));
                start = newline + 1;
            }
            return new Lines(lines, false);
        }

        int size() {
            return lines.size();
        }
    }

    private final StringBuilder out = new StringBuilder();

    /** The changes from {@code before} to {@code after}, sorted by path, with their patch. */
    static WorkspaceDiff compare(SortedMap<String, byte[]> before, SortedMap<String, byte[]> after) {
        List<Change> changes = new ArrayList<>();
        UnifiedDiff patch = new UnifiedDiff();
        for (String path : union(before, after)) {
            byte[] old = before.get(path);
            byte[] now = after.get(path);
            Status status = old == null ? Status.A : now == null ? Status.D : Arrays.equals(old, now) ? null : Status.M;
            if (status != null) {
                changes.add(new Change(status, path));
                patch.append(status, path, old == null ? new byte[0] : old, now == null ? new byte[0] : now);
            }
        }
        return new WorkspaceDiff(changes, patch.text());
    }

    private static Set<String> union(SortedMap<String, byte[]> a, SortedMap<String, byte[]> b) {
        Set<String> all = new TreeSet<>(a.keySet());
        all.addAll(b.keySet());
        return all;
    }

    /** Appends the patch of one path; a missing side has empty content. */
    void append(Status status, String path, byte[] oldBytes, byte[] newBytes) {
        out.append("diff --git a/").append(path).append(" b/").append(path).append('\n');
        if (status == Status.A) {
            out.append("new file mode ").append(MODE).append('\n');
        } else if (status == Status.D) {
            out.append("deleted file mode ").append(MODE).append('\n');
        }
        if (Arrays.equals(oldBytes, newBytes)) {
            return;
        }
        String oldName = status == Status.A ? "/dev/null" : "a/" + path;
        String newName = status == Status.D ? "/dev/null" : "b/" + path;
        if (isBinary(oldBytes) || isBinary(newBytes)) {
            out.append("Binary files ").append(oldName).append(" and ").append(newName).append(" differ\n");
            return;
        }
        out.append("--- ").append(oldName).append('\n');
        out.append("+++ ").append(newName).append('\n');
        Lines a = Lines.of(oldBytes);
        Lines b = Lines.of(newBytes);
        List<Edit> edits = edits(a.lines(), b.lines());
        int first = 0;
        while (first < edits.size()) {
            int last = first;
            while (last + 1 < edits.size() && edits.get(last + 1).beginA() - edits.get(last).endA() <= 2 * CONTEXT) {
                last++;
            }
            appendHunk(a, b, edits.subList(first, last + 1));
            first = last + 1;
        }
    }

    String text() {
        return out.toString();
    }

    private void appendHunk(Lines a, Lines b, List<Edit> hunk) {
        Edit head = hunk.get(0);
        Edit tail = hunk.get(hunk.size() - 1);
        int aStart = Math.max(0, head.beginA() - CONTEXT);
        int bStart = Math.max(0, head.beginB() - CONTEXT);
        int aEnd = Math.min(a.size(), tail.endA() + CONTEXT);
        int bEnd = Math.min(b.size(), tail.endB() + CONTEXT);
        out.append("@@ -").append(range(aStart, aEnd)).append(" +").append(range(bStart, bEnd)).append(" @@\n");
        int ai = aStart;
        for (Edit edit : hunk) {
            while (ai < edit.beginA()) {
                line(' ', a, ai++);
            }
            while (ai < edit.endA()) {
                line('-', a, ai++);
            }
            for (int bi = edit.beginB(); bi < edit.endB(); bi++) {
                line('+', b, bi);
            }
        }
        while (ai < aEnd) {
            line(' ', a, ai++);
        }
    }

    private void line(char prefix, Lines text, int index) {
        out.append(prefix).append(text.lines().get(index)).append('\n');
        if (index == text.size() - 1 && text.missingNewlineAtEnd()) {
            out.append(NO_NEWLINE);
        }
    }

    /** git's rule: a NUL byte in the first 8,000 bytes. */
    private static boolean isBinary(byte[] bytes) {
        for (int i = 0; i < Math.min(bytes.length, 8000); i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** A hunk range as git writes it: {@code start,count}, {@code start} alone for one line. */
    private static String range(int start, int end) {
        int count = end - start;
        if (count == 0) {
            return start + ",0";
        }
        return count == 1 ? Integer.toString(start + 1) : (start + 1) + "," + count;
    }

    /** Myers' O((N+M)D) shortest edit script, as runs of replaced lines in order. */
    private static List<Edit> edits(List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        int max = n + m;
        int offset = max + 1;
        int[] v = new int[2 * max + 3];
        List<int[]> trace = new ArrayList<>();
        int found = -1;
        for (int d = 0; d <= max && found < 0; d++) {
            trace.add(v.clone());
            for (int k = -d; k <= d; k += 2) {
                int x = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])
                        ? v[offset + k + 1] : v[offset + k - 1] + 1;
                int y = x - k;
                while (x < n && y < m && a.get(x).equals(b.get(y))) {
                    x++;
                    y++;
                }
                v[offset + k] = x;
                if (x >= n && y >= m) {
                    found = d;
                    break;
                }
            }
        }
        // Walk back through the trace: each d took one insert or delete, then a diagonal snake.
        List<int[]> steps = new ArrayList<>(); // {xBefore, yBefore, xAfter, yAfter} of each insert or delete
        int x = n;
        int y = m;
        for (int d = found; d > 0; d--) {
            int[] vd = trace.get(d);
            int k = x - y;
            int prevK = k == -d || (k != d && vd[offset + k - 1] < vd[offset + k + 1]) ? k + 1 : k - 1;
            int prevX = vd[offset + prevK];
            int prevY = prevX - prevK;
            int midX = prevK == k + 1 ? prevX : prevX + 1;
            steps.add(0, new int[] {prevX, prevY, midX, midX - k});
            x = prevX;
            y = prevY;
        }
        List<Edit> edits = new ArrayList<>();
        for (int[] step : steps) {
            Edit last = edits.isEmpty() ? null : edits.get(edits.size() - 1);
            if (last != null && last.endA() == step[0] && last.endB() == step[1]) {
                edits.set(edits.size() - 1, new Edit(last.beginA(), step[2], last.beginB(), step[3]));
            } else {
                edits.add(new Edit(step[0], step[2], step[1], step[3]));
            }
        }
        return edits;
    }
}
