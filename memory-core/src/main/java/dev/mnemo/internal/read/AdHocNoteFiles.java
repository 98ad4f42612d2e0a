package dev.mnemo.internal.read;

import dev.mnemo.ProjectKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The ad-hoc notes of a memory folder, in one place: where they live, how a note names its scope,
 * and which notes a consolidation has folded in.
 *
 * <ul>
 *   <li>Every note is a file {@code extensions/ad_hoc/notes/<timestamp>-<slug>.md}, as in Codex.
 *   <li>A note may start with header lines and a blank line: {@code scope: project projects/<slug>/}
 *       files it under one project (a note without it is global, as every note Codex writes is), and
 *       {@code source: conversation <id>} names the recorded conversation whose model asked for it.
 *       A note with no {@code source:} line was written outside any recorded conversation: by a
 *       person (the CLI's {@code mnemo note}, an approval) or an application's own call.
 *   <li>Note text never carries a header or a marker of its own: {@link #neutralise} quotes a line
 *       that would read as a {@code scope:}/{@code source:} header and breaks the instruction
 *       markers ({@code MEMORY_SUMMARY}, the citation tags), so a note can neither fake a scope nor
 *       close the block it is shown in.
 *   <li>{@value #FOLDED_FILE} at the memory root lists, one per line, the notes the last successful
 *       consolidation was shown. It is written by Phase 2 just before its baseline, so a rollback
 *       or a forget that restores an older state restores the list that goes with it. A note not
 *       on it is pending: the instructions show it at once, framed as an unverified request.
 * </ul>
 */
public final class AdHocNoteFiles {

    /** Where notes go, relative to the memory root. */
    public static final List<String> NOTES_DIR = List.of("extensions", "ad_hoc", "notes");
    /** The list of folded notes, at the memory root. */
    public static final String FOLDED_FILE = "ad_hoc_notes_folded.txt";

    private static final String PROJECT_SCOPE_PREFIX = "scope: project " + ProjectKeys.FOLDER + "/";
    private static final String SOURCE_PREFIX = "source: conversation ";
    /** A line of note text that would read as a header: quoted. */
    private static final Pattern HEADER_LIKE = Pattern.compile("(?im)^([ \\t]*)((?:scope|source)[ \\t]*:)");
    /** The read path's summary marker and runs of the {@code =} that frame it. */
    private static final Pattern SUMMARY_MARKER = Pattern.compile("(?i)MEMORY[_ \\t-]*SUMMARY|={3,}");
    /** Citation tags a model's answer or the instructions use. */
    private static final Pattern CITATION_TAG = Pattern.compile(
            "(?i)<\\s*(/?)\\s*(oai-mem-citation|citation_entries|rollout_ids)\\s*>");

    private AdHocNoteFiles() {}

    /**
     * One note as read back. {@code project} is the slug of its project, empty when global;
     * {@code conversation} the recorded conversation that asked for it, empty when written outside one.
     */
    public record Note(String name, Optional<String> project, String text, Optional<String> conversation) {
        /** A note with no recorded conversation. */
        public Note(String name, Optional<String> project, String text) {
            this(name, project, text, Optional.empty());
        }
    }

    /** The notes folder of a memory root. */
    public static Path notesDir(Path memoryRoot) {
        Path dir = memoryRoot;
        for (String segment : NOTES_DIR) {
            dir = dir.resolve(segment);
        }
        return dir;
    }

    /** What a note for {@code projectSlug} (or a global one, when empty) is stored as. */
    public static String fileText(Optional<String> projectSlug, String note) {
        return fileText(projectSlug, Optional.empty(), note);
    }

    /**
     * What a note for {@code projectSlug} (or a global one) asked for in {@code conversation} (or
     * outside any) is stored as: its header lines, a blank line, the note.
     */
    public static String fileText(Optional<String> projectSlug, Optional<String> conversation, String note) {
        StringBuilder header = new StringBuilder();
        projectSlug.ifPresent(slug -> header.append(PROJECT_SCOPE_PREFIX).append(slug).append("/\n"));
        conversation.map(id -> id.replaceAll("[\\r\\n]+", " ").strip()).filter(id -> !id.isEmpty())
                .ifPresent(id -> header.append(SOURCE_PREFIX).append(id).append('\n'));
        return header.length() == 0 ? note : header.append('\n').append(note).toString();
    }

    /** The slug of the project a note's file text names in its header; empty for a global note. */
    public static Optional<String> projectOf(String fileText) {
        return parse("", fileText).project();
    }

    /** The recorded conversation a note's file text names in its header; empty when none. */
    public static Optional<String> conversationOf(String fileText) {
        return parse("", fileText).conversation();
    }

    /**
     * A note's scope, source and text from its file's text. Header lines are read only at the top;
     * the text starts after the blank line that ends them, or at the first line that is no header.
     */
    static Note parse(String name, String fileText) {
        Optional<String> project = Optional.empty();
        Optional<String> conversation = Optional.empty();
        int start = 0;
        while (start < fileText.length()) {
            int lineEnd = fileText.indexOf('\n', start);
            String line = (lineEnd < 0 ? fileText.substring(start) : fileText.substring(start, lineEnd)).strip();
            if (line.isEmpty()) {
                break;
            }
            if (project.isEmpty() && line.startsWith(PROJECT_SCOPE_PREFIX)) {
                String slug = line.substring(PROJECT_SCOPE_PREFIX.length()).replaceAll("/+$", "").strip();
                if (slug.isEmpty() || slug.contains("/")) {
                    return new Note(name, Optional.empty(), fileText.strip());
                }
                project = Optional.of(slug);
            } else if (conversation.isEmpty() && line.startsWith(SOURCE_PREFIX)
                    && !line.substring(SOURCE_PREFIX.length()).isBlank()) {
                conversation = Optional.of(line.substring(SOURCE_PREFIX.length()).strip());
            } else if (project.isEmpty() && conversation.isEmpty()) {
                return new Note(name, Optional.empty(), fileText.strip());
            } else {
                break; // the text starts right after the headers (no blank line, as some hand-written notes)
            }
            if (lineEnd < 0) {
                start = fileText.length();
                break;
            }
            start = lineEnd + 1;
        }
        if (project.isEmpty() && conversation.isEmpty()) {
            return new Note(name, Optional.empty(), fileText.strip());
        }
        return new Note(name, project, fileText.substring(Math.min(start, fileText.length())).strip(), conversation);
    }

    /**
     * The fingerprint a rejection is recorded by: SHA-256 (hex) of the text in lower case, with
     * list bullets, surrounding whitespace and a final full stop taken off and runs of whitespace made
     * one space, so the same note given again, or repeated as a line of a memory, has the same one.
     */
    public static String fingerprint(String text) {
        String normal = text.strip().toLowerCase(java.util.Locale.ROOT).replaceAll("\\s+", " ")
                .replaceFirst("^(?:[-*\u2022>]\\s*)+", "").replaceFirst("[.!\\s]+$", "");
        return FileText.sha256Hex(normal.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Note text made inert where it is shown: a line that would read as a {@code scope:} or
     * {@code source:} header is quoted ({@code > }), the summary marker's words and its rules of
     * {@code =} are broken up, and citation tags lose their angle brackets. Everything else is kept
     * as written.
     */
    public static String neutralise(String text) {
        String out = HEADER_LIKE.matcher(text).replaceAll("$1> $2");
        out = SUMMARY_MARKER.matcher(out).replaceAll(match -> match.group().startsWith("=") ? "="
                : "memory summary");
        return CITATION_TAG.matcher(out).replaceAll(match -> "[" + match.group(1) + match.group(2) + "]");
    }

    /** The names of the note files now in the folder, sorted; empty when there is no folder. */
    public static List<String> names(Path memoryRoot) throws IOException {
        Path dir = notesDir(memoryRoot);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.md")) {
            for (Path entry : entries) {
                if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    names.add(entry.getFileName().toString());
                }
            }
        }
        names.sort(Comparator.naturalOrder());
        return names;
    }

    /**
     * One note file as read: the note, and the SHA-256 and size of the file's bytes.
     */
    record NoteFile(Note note, String sha256, long bytes) {}

    /** Every note in the folder, newest name first (names start with their timestamp). */
    static List<NoteFile> readAll(Path notesDir) throws IOException {
        List<NoteFile> notes = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(notesDir, "*.md")) {
            for (Path entry : entries) {
                if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    String name = entry.getFileName().toString();
                    try {
                        FileText file = FileText.read(entry);
                        notes.add(new NoteFile(parse(name, file.text()), file.sha256(), file.bytes()));
                    } catch (IOException e) {
                        // Gone meanwhile or not UTF-8: not shown; the consolidation still sees the file.
                    }
                }
            }
        }
        notes.sort(Comparator.comparing((NoteFile file) -> file.note().name()).reversed());
        return List.copyOf(notes);
    }

    /** Writes the folded list (the notes the consolidation that is about to be kept was shown). */
    public static void writeFolded(Path memoryRoot, Collection<String> names) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String name : new LinkedHashSet<>(names)) {
            text.append(name).append('\n');
        }
        Path file = memoryRoot.resolve(FOLDED_FILE);
        Path temp = Files.createTempFile(memoryRoot, ".folded-", ".tmp");
        try {
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** The folded list. */
    static Set<String> readFolded(Path file) throws IOException {
        Set<String> names = new LinkedHashSet<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                names.add(line.strip());
            }
        }
        return Set.copyOf(names);
    }
}
