package dev.mnemo.workspace.git;

import dev.mnemo.spi.WorkspaceDiff.Status;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.MyersDiff;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.lib.FileMode;

/**
 * Renders one changed path as a {@code git diff}-style patch: a {@code diff --git a/P b/P} header,
 * the mode lines, {@code ---}/{@code +++} names ({@code /dev/null} for a missing side) and hunks
 * with {@value #CONTEXT} lines of context. No {@code index} line is written.
 */
final class PatchWriter {

    static final int CONTEXT = 3;
    private static final String NO_NEWLINE = "\\ No newline at end of file\n";

    private final StringBuilder out = new StringBuilder();

    /** Appends the patch of one path; a missing side has a {@code null} mode and empty content. */
    void append(Status status, String path, FileMode oldMode, byte[] oldBytes, FileMode newMode, byte[] newBytes) {
        out.append("diff --git a/").append(path).append(" b/").append(path).append('\n');
        switch (status) {
            case A -> out.append("new file mode ").append(modeText(newMode)).append('\n');
            case D -> out.append("deleted file mode ").append(modeText(oldMode)).append('\n');
            case M -> {
                if (!oldMode.equals(newMode)) {
                    out.append("old mode ").append(modeText(oldMode)).append('\n');
                    out.append("new mode ").append(modeText(newMode)).append('\n');
                }
            }
        }
        if (Arrays.equals(oldBytes, newBytes)) {
            return;
        }
        String oldName = status == Status.A ? "/dev/null" : "a/" + path;
        String newName = status == Status.D ? "/dev/null" : "b/" + path;
        if (RawText.isBinary(oldBytes) || RawText.isBinary(newBytes)) {
            out.append("Binary files ").append(oldName).append(" and ").append(newName).append(" differ\n");
            return;
        }
        out.append("--- ").append(oldName).append('\n');
        out.append("+++ ").append(newName).append('\n');
        appendHunks(new RawText(oldBytes), new RawText(newBytes));
    }

    String text() {
        return out.toString();
    }

    private void appendHunks(RawText a, RawText b) {
        EditList edits = MyersDiff.INSTANCE.diff(RawTextComparator.DEFAULT, a, b);
        int first = 0;
        while (first < edits.size()) {
            int last = first;
            while (last + 1 < edits.size()
                    && edits.get(last + 1).getBeginA() - edits.get(last).getEndA() <= 2 * CONTEXT) {
                last++;
            }
            appendHunk(a, b, edits.subList(first, last + 1));
            first = last + 1;
        }
    }

    private void appendHunk(RawText a, RawText b, List<Edit> hunk) {
        Edit head = hunk.get(0);
        Edit tail = hunk.get(hunk.size() - 1);
        int aStart = Math.max(0, head.getBeginA() - CONTEXT);
        int bStart = Math.max(0, head.getBeginB() - CONTEXT);
        int aEnd = Math.min(a.size(), tail.getEndA() + CONTEXT);
        int bEnd = Math.min(b.size(), tail.getEndB() + CONTEXT);
        out.append("@@ -").append(range(aStart, aEnd)).append(" +").append(range(bStart, bEnd)).append(" @@\n");
        int ai = aStart;
        int bi = bStart;
        for (Edit edit : hunk) {
            while (ai < edit.getBeginA()) {
                line(' ', a, ai++);
                bi++;
            }
            while (ai < edit.getEndA()) {
                line('-', a, ai++);
            }
            while (bi < edit.getEndB()) {
                line('+', b, bi++);
            }
        }
        while (ai < aEnd) {
            line(' ', a, ai++);
        }
    }

    private void line(char prefix, RawText text, int index) {
        out.append(prefix).append(text.getString(index)).append('\n');
        if (index == text.size() - 1 && text.isMissingNewlineAtEnd()) {
            out.append(NO_NEWLINE);
        }
    }

    /** A hunk range as git writes it: {@code start,count}, {@code start} alone for one line. */
    private static String range(int start, int end) {
        int count = end - start;
        if (count == 0) {
            return start + ",0";
        }
        return count == 1 ? Integer.toString(start + 1) : (start + 1) + "," + count;
    }

    private static String modeText(FileMode mode) {
        return String.format("%06o", mode.getBits());
    }
}
