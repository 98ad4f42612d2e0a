package dev.mnemo.internal.agent;

import java.util.List;

/**
 * What each file tool answers, as records the tools serialise to JSON with snake_case keys.
 * A {@code null} component is left out of the JSON.
 */
final class ToolResults {

    private ToolResults() {}

    /** One entry of a listing; {@code size} only for files. */
    record Entry(String path, String type, Long size) {}

    record Listing(String path, List<Entry> entries, boolean truncated, String note) {}

    record FileSlice(String path, int startLine, int endLine, int totalLines, String content, boolean truncated,
            String note) {}

    record SearchMatches(String query, String path, List<String> matches, boolean truncated, String note) {}

    record Written(String path, long bytes, boolean created) {}

    record Edited(String path, long bytes) {}

    record Deleted(String path, String type) {}

    record Moved(String from, String to, boolean replaced) {}
}
