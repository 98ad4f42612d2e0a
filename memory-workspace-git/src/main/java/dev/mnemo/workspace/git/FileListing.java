package dev.mnemo.workspace.git;

import dev.mnemo.workspace.git.WorkingFiles.FileState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Tracked files as two parallel arrays, sorted by {@code /}-separated relative path in
 * {@link String#compareTo} order: the order a diff lists its changes in. A baseline's listing is
 * kept for as long as its commit is HEAD, so walking it is an array scan rather than map lookups.
 */
final class FileListing {

    static final FileListing EMPTY = new FileListing(new String[0], new FileState[0]);

    private final String[] paths;
    private final FileState[] states;

    private FileListing(String[] paths, FileState[] states) {
        this.paths = paths;
        this.states = states;
    }

    int size() {
        return paths.length;
    }

    String path(int index) {
        return paths[index];
    }

    FileState state(int index) {
        return states[index];
    }

    /** The state of {@code path}, or null when it is not listed. */
    FileState get(String path) {
        int index = Arrays.binarySearch(paths, path);
        return index >= 0 ? states[index] : null;
    }

    /**
     * Collects paths in any order and sorts them once at the end; paths added in order (a working
     * tree walk emits them so) cost one comparison each.
     */
    static final class Builder {

        private final List<String> paths = new ArrayList<>();
        private final List<FileState> states = new ArrayList<>();
        private boolean sorted = true;

        void add(String path, FileState state) {
            if (sorted && !paths.isEmpty() && paths.get(paths.size() - 1).compareTo(path) >= 0) {
                sorted = false;
            }
            paths.add(path);
            states.add(state);
        }

        FileListing build() {
            int size = paths.size();
            String[] sortedPaths = paths.toArray(new String[size]);
            FileState[] sortedStates = states.toArray(new FileState[size]);
            if (!sorted) {
                Integer[] order = new Integer[size];
                Arrays.setAll(order, i -> i);
                Arrays.sort(order, (a, b) -> paths.get(a).compareTo(paths.get(b)));
                for (int i = 0; i < size; i++) {
                    sortedPaths[i] = paths.get(order[i]);
                    sortedStates[i] = states.get(order[i]);
                }
            }
            return new FileListing(sortedPaths, sortedStates);
        }
    }
}
