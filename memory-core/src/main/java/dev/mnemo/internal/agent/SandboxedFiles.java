package dev.mnemo.internal.agent;

import dev.mnemo.internal.agent.ToolResults.Deleted;
import dev.mnemo.internal.agent.ToolResults.Edited;
import dev.mnemo.internal.agent.ToolResults.Entry;
import dev.mnemo.internal.agent.ToolResults.FileSlice;
import dev.mnemo.internal.agent.ToolResults.Listing;
import dev.mnemo.internal.agent.ToolResults.Moved;
import dev.mnemo.internal.agent.ToolResults.SearchMatches;
import dev.mnemo.internal.agent.ToolResults.Written;
import dev.mnemo.internal.sandbox.ToolFailure;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The file operations behind the agent's tools, every one confined by {@link SandboxPaths}.
 * Writes go to a hidden temporary file in the target's folder and are then renamed over the
 * target atomically, so a reader never sees half a file. Outputs are bounded.
 */
final class SandboxedFiles {

    static final int MAX_LIST_ENTRIES = 500;
    static final int MAX_LIST_DEPTH = 16;
    static final int DEFAULT_READ_LINES = 2_000;
    static final int MAX_READ_CHARS = 100_000;
    static final int MAX_SEARCH_MATCHES = 200;
    static final int MAX_MATCH_LINE_CHARS = 300;
    static final int MAX_SEARCH_FILES = 5_000;
    static final long MAX_SEARCH_FILE_BYTES = 16L << 20;
    static final int MAX_QUERY_CHARS = 1_000;
    static final long MAX_WRITE_BYTES = 8L << 20;

    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    private final SandboxPaths paths;

    SandboxedFiles(SandboxPaths paths) {
        this.paths = paths;
    }

    Listing list(String rawPath, boolean recursive) throws IOException {
        Path folder = paths.resolveAllowingRoot(rawPath);
        requireFolder(folder, rawPath);
        List<Entry> entries = new ArrayList<>();
        boolean complete = collectEntries(folder, recursive, 0, entries);
        String note = complete ? null : "listing stopped after " + entries.size() + " entries; list a sub-folder to see more";
        return new Listing(paths.relative(folder), entries, !complete, note);
    }

    FileSlice read(String rawPath, int startLine, int maxLines) throws IOException {
        if (startLine < 1) {
            throw new ToolFailure("start_line must be a 1-indexed line number, was " + startLine);
        }
        if (maxLines < 1) {
            throw new ToolFailure("max_lines must be a positive number, was " + maxLines);
        }
        Path file = paths.resolve(rawPath);
        requireFile(file, rawPath);
        StringBuilder content = new StringBuilder();
        int lineNo = 0;
        int lastIncluded = startLine - 1;
        boolean cutByChars = false;
        boolean partialLine = false;
        try (BufferedReader reader = lenientReader(file)) {
            String line;
            while ((line = reader.readLine()) != null) {
                lineNo++;
                boolean wanted = lineNo >= startLine && lineNo - startLine < maxLines && !cutByChars;
                if (!wanted) {
                    continue;
                }
                if (content.length() + line.length() + 1 > MAX_READ_CHARS) {
                    cutByChars = true;
                    if (content.length() == 0) {
                        content.append(line, 0, MAX_READ_CHARS).append('\n');
                        lastIncluded = lineNo;
                        partialLine = true;
                    }
                    continue;
                }
                content.append(line).append('\n');
                lastIncluded = lineNo;
            }
        }
        if (startLine > Math.max(lineNo, 1)) {
            throw new ToolFailure("start_line " + startLine + " is past the end of '" + paths.relative(file)
                    + "', which has " + lineNo + " lines");
        }
        boolean truncated = partialLine || lastIncluded < lineNo;
        String note = null;
        if (partialLine) {
            note = "line " + lastIncluded + " is longer than " + MAX_READ_CHARS + " characters and was cut";
        } else if (truncated) {
            note = "output cut after line " + lastIncluded + " of " + lineNo + "; call read_file with start_line "
                    + (lastIncluded + 1) + " to read on";
        }
        return new FileSlice(paths.relative(file), startLine, lastIncluded, lineNo, content.toString(), truncated, note);
    }

    SearchMatches search(String query, String rawPath) throws IOException {
        if (query == null || query.isEmpty()) {
            throw new ToolFailure("query must not be empty");
        }
        if (query.length() > MAX_QUERY_CHARS) {
            throw new ToolFailure("query is " + query.length() + " characters long; the most allowed is " + MAX_QUERY_CHARS);
        }
        Path base = paths.resolveAllowingRoot(rawPath);
        List<Path> files = new ArrayList<>();
        if (Files.isRegularFile(base, NOFOLLOW)) {
            files.add(base);
        } else {
            requireFolder(base, rawPath);
            List<Entry> entries = new ArrayList<>();
            collectEntries(base, true, 0, entries, MAX_SEARCH_FILES);
            entries.stream().filter(e -> e.type().equals("file")).forEach(e -> files.add(paths.root().resolve(e.path())));
        }
        List<String> matches = new ArrayList<>();
        boolean truncated = false;
        for (Path file : files) {
            if (truncated || Files.size(file) > MAX_SEARCH_FILE_BYTES) {
                continue;
            }
            truncated = searchFile(file, query, matches);
        }
        String note = truncated ? "stopped after " + MAX_SEARCH_MATCHES + " matches; narrow the query or the path" : null;
        return new SearchMatches(query, paths.relative(base), matches, truncated, note);
    }

    Written write(String rawPath, String content) throws IOException {
        Path file = paths.resolveWritable(rawPath);
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_WRITE_BYTES) {
            throw new ToolFailure("content is " + bytes.length + " bytes; the most one write may hold is " + MAX_WRITE_BYTES);
        }
        if (Files.isDirectory(file, NOFOLLOW)) {
            throw new ToolFailure("'" + paths.relative(file) + "' is a folder; name a file to write");
        }
        boolean created = !Files.exists(file, NOFOLLOW);
        paths.createParents(file);
        replaceAtomically(file, bytes);
        return new Written(paths.relative(file), bytes.length, created);
    }

    Edited edit(String rawPath, String oldString, String newString) throws IOException {
        if (oldString.isEmpty()) {
            throw new ToolFailure("old_string must not be empty");
        }
        Path file = paths.resolveWritable(rawPath);
        requireFile(file, rawPath);
        String text = strictUtf8(file);
        int matches = countOccurrences(text, oldString);
        if (matches != 1) {
            throw new ToolFailure(matches == 0
                    ? "old_string was not found in '" + paths.relative(file) + "'; it must match the file text exactly"
                    : "old_string matches " + matches + " times in '" + paths.relative(file)
                            + "'; it must match exactly once, so include more of the surrounding text");
        }
        int at = text.indexOf(oldString);
        byte[] bytes = (text.substring(0, at) + newString + text.substring(at + oldString.length()))
                .getBytes(StandardCharsets.UTF_8);
        replaceAtomically(file, bytes);
        return new Edited(paths.relative(file), bytes.length);
    }

    Deleted delete(String rawPath) throws IOException {
        Path path = paths.resolveWritable(rawPath);
        if (!Files.exists(path, NOFOLLOW)) {
            throw new ToolFailure("path '" + rawPath + "' was not found");
        }
        String type = typeOf(path);
        if (!type.equals("file") && !type.equals("dir")) {
            throw new ToolFailure("'" + paths.relative(path) + "' is not a file or folder and cannot be deleted");
        }
        try {
            Files.delete(path);
        } catch (DirectoryNotEmptyException e) {
            throw new ToolFailure("folder '" + paths.relative(path) + "' is not empty; delete the files inside it first");
        }
        return new Deleted(paths.relative(path), type);
    }

    Moved move(String rawFrom, String rawTo, boolean overwrite) throws IOException {
        Path from = paths.resolveWritable(rawFrom);
        Path to = paths.resolveWritable(rawTo);
        if (!Files.exists(from, NOFOLLOW)) {
            throw new ToolFailure("path '" + rawFrom + "' was not found");
        }
        if (from.equals(to)) {
            throw new ToolFailure("from and to are the same path '" + paths.relative(from) + "'");
        }
        boolean fromFolder = Files.isDirectory(from, NOFOLLOW);
        if (fromFolder && to.startsWith(from)) {
            throw new ToolFailure("cannot move folder '" + paths.relative(from) + "' into itself");
        }
        boolean replacing = Files.exists(to, NOFOLLOW);
        if (replacing) {
            if (!overwrite) {
                throw new ToolFailure("'" + paths.relative(to) + "' already exists; pass overwrite=true to replace it");
            }
            if (fromFolder || !Files.isRegularFile(to, NOFOLLOW)) {
                throw new ToolFailure("overwrite only replaces a file with a file; '" + paths.relative(to) + "' is a "
                        + typeOf(to) + " and '" + paths.relative(from) + "' is a " + typeOf(from));
            }
        }
        paths.createParents(to);
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        return new Moved(paths.relative(from), paths.relative(to), replacing);
    }

    private boolean collectEntries(Path folder, boolean recursive, int depth, List<Entry> out) throws IOException {
        return collectEntries(folder, recursive, depth, out, MAX_LIST_ENTRIES);
    }

    /** Depth-first, sorted by name, hidden entries skipped, links reported but never entered; false when cut. */
    private boolean collectEntries(Path folder, boolean recursive, int depth, List<Entry> out, int limit)
            throws IOException {
        List<Path> children;
        try (Stream<Path> stream = Files.list(folder)) {
            children = stream.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList();
        }
        for (Path child : children) {
            if (out.size() >= limit) {
                return false;
            }
            String type = typeOf(child);
            Long size = type.equals("file") ? Files.size(child) : null;
            out.add(new Entry(paths.relative(child), type, size));
            if (recursive && type.equals("dir") && depth + 1 < MAX_LIST_DEPTH
                    && !collectEntries(child, true, depth + 1, out, limit)) {
                return false;
            }
        }
        return true;
    }

    /** Adds {@code path:line:text} for each line holding the query; true when the match limit was hit. */
    private boolean searchFile(Path file, String query, List<String> matches) throws IOException {
        try (BufferedReader reader = lenientReader(file)) {
            String line;
            int lineNo = 0;
            while ((line = reader.readLine()) != null) {
                lineNo++;
                if (!line.contains(query)) {
                    continue;
                }
                if (matches.size() >= MAX_SEARCH_MATCHES) {
                    return true;
                }
                String text = line.length() > MAX_MATCH_LINE_CHARS ? line.substring(0, MAX_MATCH_LINE_CHARS) + "…" : line;
                matches.add(paths.relative(file) + ":" + lineNo + ":" + text);
            }
        }
        return false;
    }

    private void replaceAtomically(Path file, byte[] bytes) throws IOException {
        Path temp = Files.createTempFile(file.getParent(), ".mnemo-agent-", ".tmp");
        try {
            Files.write(temp, bytes);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private void requireFolder(Path folder, String rawPath) {
        if (!Files.exists(folder, NOFOLLOW)) {
            throw new ToolFailure("path '" + rawPath + "' was not found");
        }
        if (!Files.isDirectory(folder, NOFOLLOW)) {
            throw new ToolFailure("path '" + rawPath + "' is not a folder");
        }
    }

    private void requireFile(Path file, String rawPath) {
        if (!Files.exists(file, NOFOLLOW)) {
            throw new ToolFailure("path '" + rawPath + "' was not found");
        }
        if (!Files.isRegularFile(file, NOFOLLOW)) {
            throw new ToolFailure("path '" + rawPath + "' is not a file" + (Files.isDirectory(file, NOFOLLOW)
                    ? "; it is a folder, use list_files" : ""));
        }
    }

    private static String typeOf(Path path) {
        if (Files.isSymbolicLink(path)) {
            return "symlink";
        }
        if (Files.isDirectory(path, NOFOLLOW)) {
            return "dir";
        }
        return Files.isRegularFile(path, NOFOLLOW) ? "file" : "other";
    }

    private static BufferedReader lenientReader(Path file) throws IOException {
        return new BufferedReader(new InputStreamReader(Files.newInputStream(file, NOFOLLOW),
                StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPLACE)
                        .onUnmappableCharacter(CodingErrorAction.REPLACE)));
    }

    private String strictUtf8(Path file) throws IOException {
        byte[] bytes;
        try (var in = Files.newInputStream(file, NOFOLLOW)) {
            bytes = in.readAllBytes();
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ToolFailure("'" + paths.relative(file) + "' is not UTF-8 text and cannot be edited; rewrite it"
                    + " with write_file instead");
        }
    }

    private static int countOccurrences(String text, String needle) {
        int count = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
            count++;
        }
        return count;
    }
}
