package dev.mnemo.workspace.git;

import dev.mnemo.spi.WorkspaceDiff;
import dev.mnemo.spi.WorkspaceDiff.Change;
import dev.mnemo.spi.WorkspaceDiff.Status;
import dev.mnemo.workspace.git.WorkingFiles.FileState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The diff between two sorted file listings (the baseline and the folder, or two kept
 * consolidations): which paths were added, modified or deleted, and the git-style patch of them.
 */
final class ListingDiff {

    private ListingDiff() {
    }

    /** Reads the bytes of one listed file. */
    @FunctionalInterface
    interface Contents {
        byte[] read(String path, FileState state) throws IOException;
    }

    /** The changes from {@code before} to {@code after}, with their patch. */
    static WorkspaceDiff compare(FileListing before, Contents beforeContents, FileListing after,
            Contents afterContents) throws IOException {
        List<Change> changes = new ArrayList<>();
        PatchWriter patch = new PatchWriter();
        // Both listings are sorted by path: walk them side by side (a merge), no union set or lookups.
        int o = 0;
        int n = 0;
        while (o < before.size() || n < after.size()) {
            int order = o == before.size() ? 1 : n == after.size() ? -1 : before.path(o).compareTo(after.path(n));
            String path = order <= 0 ? before.path(o) : after.path(n);
            FileState old = order <= 0 ? before.state(o++) : null;
            FileState now = order >= 0 ? after.state(n++) : null;
            Status status = old == null ? Status.A : now == null ? Status.D : old.equals(now) ? null : Status.M;
            if (status == null) {
                continue;
            }
            changes.add(new Change(status, path));
            patch.append(status, path,
                    old == null ? null : old.mode(), old == null ? new byte[0] : beforeContents.read(path, old),
                    now == null ? null : now.mode(), now == null ? new byte[0] : afterContents.read(path, now));
        }
        return new WorkspaceDiff(changes, patch.text());
    }
}
