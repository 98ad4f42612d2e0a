package dev.mnemo.internal.tools;

import dev.mnemo.internal.sandbox.ToolFailure;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The substring search behind {@code memories_search} (read sheet §4.5): queries are matched per
 * line, optionally case-insensitively and "normalised" (only letters and digits kept), in one of
 * three modes; matches are sorted by path (byte-wise) and line.
 */
final class MemorySearch {

    /** How queries must co-occur for a match. */
    sealed interface MatchMode permits Any, AllOnSameLine, AllWithinLines {}

    /** A line matching at least one query. */
    record Any() implements MatchMode {}

    /** A line matching every query. */
    record AllOnSameLine() implements MatchMode {}

    /** Every query matched within {@code lineCount} consecutive lines. */
    record AllWithinLines(int lineCount) implements MatchMode {}

    /** What to look for; {@code queries} are already trimmed. */
    record Request(List<String> queries, MatchMode mode, int contextLines, boolean caseSensitive, boolean normalized) {}

    /**
     * One hit: numbers are 1-based; {@code content} is the matched lines plus context, joined by
     * {@code \n}; {@code rank} orders files before path order (0 for the session's project's files).
     */
    record Match(String path, int matchLineNumber, int contentStartLineNumber, String content,
            List<String> matchedQueries, int rank) {}

    private final MemoryPaths paths;

    MemorySearch(MemoryPaths paths) {
        this.paths = paths;
    }

    /**
     * All matches under a resolved scope, sorted: a file, or a directory searched recursively
     * ({@code attributes} are the scope's, read without following links).
     */
    List<Match> search(MemoryPaths.Scoped scope, BasicFileAttributes attributes, Request request, ToolScope projects) {
        List<String> prepared = request.queries().stream().map(q -> prepare(q, request)).toList();
        if (prepared.stream().anyMatch(String::isEmpty)) {
            throw new ToolFailure(LocalMemoryTools.EMPTY_QUERY);
        }
        Optional<RawByteScreen> screen = RawByteScreen.of(request);
        List<Match> matches = new ArrayList<>();
        MemoryPaths.EntryVisitor search = (file, opener) -> {
            if (!projects.hidesPath(file.display())
                    && (screen.isEmpty() || screen.get().mayMatch(opener, file.size()))) {
                searchFile(file.file(), file.display(), request, prepared, projects, matches);
            }
        };
        if (attributes.isDirectory()) {
            paths.forEachFileUnder(scope.file(), scope.display(), projects::hidesPath, search);
        } else {
            search.visit(new MemoryPaths.Child(scope.file(), scope.display(), false, attributes.size()),
                    () -> FileChannel.open(scope.file()));
        }
        // The only ordering: files were visited in no particular order.
        matches.sort(Comparator.comparingInt(Match::rank).thenComparing(Match::path, MemoryPaths.UTF8_ORDER)
                .thenComparingInt(Match::matchLineNumber));
        return matches;
    }

    private static void searchFile(Path file, String display, Request request, List<String> prepared,
            ToolScope projects, List<Match> out) {
        Optional<String> text = readUtf8(file);
        if (text.isEmpty()) {
            return; // not UTF-8: skipped, as Codex does
        }
        if (projects.hidesFile(display, text.get())) {
            return;
        }
        int rank = projects.isPlain() ? 1 : projects.rank(display, text.get());
        // Every mode needs at least one query on some line. Case folding and normalizing work the same
        // on the whole text as line by line (a newline stops both), so a query missing from the whole
        // prepared text is on no line: skip the file without splitting it.
        String whole = prepare(text.get(), request);
        if (prepared.stream().noneMatch(whole::contains)) {
            return;
        }
        List<String> lines = lines(text.get());
        boolean[][] hits = new boolean[lines.size()][];
        for (int i = 0; i < lines.size(); i++) {
            String line = prepare(lines.get(i), request);
            hits[i] = new boolean[prepared.size()];
            for (int q = 0; q < prepared.size(); q++) {
                hits[i][q] = line.contains(prepared.get(q));
            }
        }
        for (int[] window : windows(hits, request.mode())) {
            boolean[] matched = new boolean[prepared.size()];
            for (int i = window[0]; i <= window[1]; i++) {
                for (int q = 0; q < matched.length; q++) {
                    matched[q] |= hits[i][q];
                }
            }
            List<String> matchedQueries = new ArrayList<>();
            for (int q = 0; q < matched.length; q++) {
                if (matched[q]) {
                    matchedQueries.add(request.queries().get(q));
                }
            }
            int from = Math.max(window[0] - request.contextLines(), 0);
            int to = (int) Math.min((long) window[1] + request.contextLines(), lines.size() - 1L);
            out.add(new Match(display, window[0] + 1, from + 1, String.join("\n", lines.subList(from, to + 1)),
                    List.copyOf(matchedQueries), rank));
        }
    }

    /** Matching line windows {@code [start, end]} (0-based, inclusive) in line order. */
    private static List<int[]> windows(boolean[][] hits, MatchMode mode) {
        List<int[]> windows = new ArrayList<>();
        for (int i = 0; i < hits.length; i++) {
            if (mode instanceof AllOnSameLine) {
                if (all(hits[i])) {
                    windows.add(new int[] {i, i});
                }
            } else if (any(hits[i])) {
                if (mode instanceof AllWithinLines within) {
                    firstCompleteWindow(hits, i, within.lineCount()).ifPresent(windows::add);
                } else {
                    windows.add(new int[] {i, i});
                }
            }
        }
        if (mode instanceof AllWithinLines) {
            // Starts are distinct and increasing, so a window strictly contains another exactly when
            // some later window ends no later than it does.
            List<int[]> minimal = new ArrayList<>();
            int laterMinEnd = Integer.MAX_VALUE;
            for (int k = windows.size() - 1; k >= 0; k--) {
                int[] window = windows.get(k);
                if (laterMinEnd > window[1]) {
                    minimal.add(window);
                }
                laterMinEnd = Math.min(laterMinEnd, window[1]);
            }
            Collections.reverse(minimal);
            return minimal;
        }
        return windows;
    }

    private static Optional<int[]> firstCompleteWindow(boolean[][] hits, int start, int lineCount) {
        boolean[] seen = new boolean[hits[start].length];
        int last = (int) Math.min((long) start + lineCount - 1, hits.length - 1L);
        for (int j = start; j <= last; j++) {
            for (int q = 0; q < seen.length; q++) {
                seen[q] |= hits[j][q];
            }
            if (all(seen)) {
                return Optional.of(new int[] {start, j});
            }
        }
        return Optional.empty();
    }

    private static boolean all(boolean[] flags) {
        for (boolean flag : flags) {
            if (!flag) {
                return false;
            }
        }
        return true;
    }

    private static boolean any(boolean[] flags) {
        for (boolean flag : flags) {
            if (flag) {
                return true;
            }
        }
        return false;
    }

    /** Lower-cases (when case-insensitive), then keeps only letters and digits (when normalised). */
    static String prepare(String text, Request request) {
        String prepared = request.caseSensitive() ? text : text.toLowerCase(Locale.ROOT);
        if (!request.normalized()) {
            return prepared;
        }
        StringBuilder kept = new StringBuilder(prepared.length());
        prepared.codePoints().filter(MemorySearch::isAlphanumeric).forEach(kept::appendCodePoint);
        return kept.toString();
    }

    /** Rust's {@code char::is_alphanumeric}: the Alphabetic property or a numeric category. */
    private static boolean isAlphanumeric(int codePoint) {
        if (Character.isAlphabetic(codePoint)) {
            return true;
        }
        int type = Character.getType(codePoint);
        return type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
                || type == Character.OTHER_NUMBER;
    }

    /** Rust's {@code str::lines}: split on {@code \n}, drop one {@code \r} before it, no empty last line. */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int newline = text.indexOf('\n', start);
            if (newline < 0) {
                lines.add(text.substring(start));
                break;
            }
            int end = newline > start && text.charAt(newline - 1) == '\r' ? newline - 1 : newline;
            lines.add(text.substring(start, end));
            start = newline + 1;
        }
        return lines;
    }

    /** The file decoded strictly as UTF-8, or empty when it is not UTF-8. */
    static Optional<String> readUtf8(Path file) {
        try {
            // Files.readString is strict: malformed UTF-8 is a MalformedInputException.
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (CharacterCodingException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw ToolFailure.io(e);
        }
    }
}
