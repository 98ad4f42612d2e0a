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

/**
 * The ad-hoc notes of a memory folder, in one place: where they live, how a note names its scope,
 * and which notes a consolidation has folded in.
 *
 * <ul>
 *   <li>Every note is a file {@code extensions/ad_hoc/notes/<timestamp>-<slug>.md}, as in Codex.
 *   <li>A note for one project starts with the line {@code scope: project projects/<slug>/} and a
 *       blank line; a note without it is global (every note Codex writes is).
 *   <li>{@value #FOLDED_FILE} at the memory root lists, one per line, the notes the last successful
 *       consolidation was shown. It is written by Phase 2 just before its baseline, so a rollback
 *       or a forget that restores an older state restores the list that goes with it. A note not
 *       on it is pending: the instructions show it at once, as the user's own words.
 * </ul>
 */
public final class AdHocNoteFiles {

    /** Where notes go, relative to the memory root. */
    public static final List<String> NOTES_DIR = List.of("extensions", "ad_hoc", "notes");
    /** The list of folded notes, at the memory root. */
    public static final String FOLDED_FILE = "ad_hoc_notes_folded.txt";

    private static final String PROJECT_SCOPE_PREFIX = "scope: project " + ProjectKeys.FOLDER + "/";

    private AdHocNoteFiles() {}

    /** One note as read back. {@code project} is the slug of its project, empty when global. */
    public record Note(String name, Optional<String> project, String text) {}

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
        return projectSlug.map(slug -> PROJECT_SCOPE_PREFIX + slug + "/\n\n" + note).orElse(note);
    }

    /** The slug of the project a note's file text names in its header; empty for a global note. */
    public static Optional<String> projectOf(String fileText) {
        return parse("", fileText).project();
    }

    /** A note's scope and text from its file's text. */
    static Note parse(String name, String fileText) {
        if (fileText.startsWith(PROJECT_SCOPE_PREFIX)) {
            int lineEnd = fileText.indexOf('\n');
            String header = lineEnd < 0 ? fileText : fileText.substring(0, lineEnd);
            String slug = header.substring(PROJECT_SCOPE_PREFIX.length()).replaceAll("/+$", "").strip();
            if (!slug.isEmpty() && !slug.contains("/")) {
                return new Note(name, Optional.of(slug), lineEnd < 0 ? "" : fileText.substring(lineEnd + 1).strip());
            }
        }
        return new Note(name, Optional.empty(), fileText.strip());
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

    /** Every note in the folder, newest name first (names start with their timestamp). */
    static List<Note> readAll(Path notesDir) throws IOException {
        List<Note> notes = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(notesDir, "*.md")) {
            for (Path entry : entries) {
                if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    String name = entry.getFileName().toString();
                    try {
                        notes.add(parse(name, Files.readString(entry, StandardCharsets.UTF_8)));
                    } catch (IOException e) {
                        // Gone meanwhile or not UTF-8: not shown; the consolidation still sees the file.
                    }
                }
            }
        }
        notes.sort(Comparator.comparing(Note::name).reversed());
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
