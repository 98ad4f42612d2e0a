package dev.mnemo.internal.tools;

import dev.mnemo.internal.read.AdHocNoteFiles;
import dev.mnemo.internal.sandbox.ConfinedRoot;
import dev.mnemo.internal.sandbox.ToolFailure;
import dev.mnemo.spi.SecretRedactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one ad-hoc note to {@code <root>/extensions/ad_hoc/notes/<filename>}, where phase 2 picks
 * it up. The note passes through the engine's {@link SecretRedactor} first: it is committed to the
 * folder's history and read by the consolidation agent, so a secret in it would be kept for good. The model chooses the file name ({@code YYYY-MM-DDTHH-MM-SS-<slug>.md}, checked in Codex's
 * order and wording); notes are never overwritten. The note is written to a temporary file in the
 * same folder and then linked into place, which fails if the name is taken, so a reader never sees
 * a half-written note and a race never overwrites one.
 */
final class AdHocNotes {

    /** Where notes go, relative to the memory root. */
    static final List<String> NOTES_DIR = AdHocNoteFiles.NOTES_DIR;

    static final int MAX_FILENAME_BYTES = 128;
    static final int MAX_SLUG_BYTES = 80;
    private static final String PREFIX_SHAPE = "DDDD-DD-DDTDD-DD-DD-";
    private static final Logger LOG = LoggerFactory.getLogger(AdHocNotes.class);

    private final ConfinedRoot confined;
    private final SecretRedactor redactor;

    AdHocNotes(ConfinedRoot confined, SecretRedactor redactor) {
        this.confined = confined;
        this.redactor = redactor;
    }

    /**
     * Validates, redacts and writes the note, headed by its project when it has one
     * ({@link AdHocNoteFiles#fileText}); returns where it went.
     */
    Path add(String filename, String note, Optional<String> projectSlug) {
        return write(filename, prepare(filename, note), projectSlug, Optional.empty());
    }

    /**
     * Validates the name and the note and returns the note redacted and neutralised
     * ({@link AdHocNoteFiles#neutralise}): what would be written.
     */
    String prepare(String filename, String note) {
        validateFilename(filename);
        if (note.strip().isEmpty()) {
            throw new ToolFailure("ad-hoc note must not be empty");
        }
        return AdHocNoteFiles.neutralise(redactor.redact(note));
    }

    /**
     * Writes an already prepared note, naming the recorded conversation that asked for it (if any)
     * in its header; fails when the name is taken.
     */
    Path write(String filename, String redacted, Optional<String> projectSlug, Optional<String> conversation) {
        validateFilename(filename);
        Path directory = ensureDirectories(confined.resolveRoot());
        Path target = directory.resolve(filename);
        if (MemoryPaths.attributesOf(target).isPresent()) {
            throw new ToolFailure("ad-hoc note '" + filename + "' already exists");
        }
        Path temp = null;
        try {
            temp = Files.createTempFile(directory, ".tmp-", ".md");
            Files.writeString(temp, AdHocNoteFiles.fileText(projectSlug, conversation, redacted), StandardCharsets.UTF_8);
            publish(temp, target, filename);
            LOG.info("Added ad-hoc memory note {}", target);
            return target;
        } catch (IOException e) {
            throw ToolFailure.io(e);
        } finally {
            deleteQuietly(temp);
        }
    }

    /**
     * Deletes every note file whose header names {@code conversation} as its source.
     *
     * @return the deleted files
     */
    List<Path> removeNotesOf(String conversation) {
        Path directory = AdHocNoteFiles.notesDir(confined.resolveRoot());
        List<Path> removed = new ArrayList<>();
        try {
            for (String name : AdHocNoteFiles.names(confined.resolveRoot())) {
                Path file = directory.resolve(name);
                String text;
                try {
                    text = Files.readString(file, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    continue; // gone meanwhile, or not a note this code wrote (not UTF-8)
                }
                if (AdHocNoteFiles.conversationOf(text).equals(Optional.of(conversation)) && Files.deleteIfExists(file)) {
                    removed.add(file);
                    LOG.info("Removed ad-hoc memory note {}: its conversation {} was forgotten", name, conversation);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the notes of conversation " + conversation, e);
        }
        return List.copyOf(removed);
    }

    static void validateFilename(String filename) {
        if (filename.getBytes(StandardCharsets.UTF_8).length > MAX_FILENAME_BYTES) {
            throw invalidFilename(filename, "must be at most 128 bytes");
        }
        if (!filename.endsWith(".md")) {
            throw invalidFilename(filename, "must end with .md");
        }
        String stem = filename.substring(0, filename.length() - ".md".length());
        if (stem.length() < PREFIX_SHAPE.length() || !hasTimestampPrefix(stem)) {
            throw invalidFilename(filename, "must use YYYY-MM-DDTHH-MM-SS-<slug>.md");
        }
        String slug = stem.substring(PREFIX_SHAPE.length());
        int slugBytes = slug.getBytes(StandardCharsets.UTF_8).length;
        if (slugBytes == 0 || slugBytes > MAX_SLUG_BYTES) {
            throw invalidFilename(filename, "slug must be 1 to 80 bytes");
        }
        for (int i = 0; i < slug.length(); i++) {
            char c = slug.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                throw invalidFilename(filename,
                        "slug must contain only lowercase ASCII letters, digits, or hyphens");
            }
        }
    }

    private static boolean hasTimestampPrefix(String stem) {
        for (int i = 0; i < PREFIX_SHAPE.length(); i++) {
            char expected = PREFIX_SHAPE.charAt(i);
            char actual = stem.charAt(i);
            boolean ok = expected == 'D' ? actual >= '0' && actual <= '9' : actual == expected;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static ToolFailure invalidFilename(String filename, String reason) {
        return new ToolFailure("filename '" + filename + "' " + reason);
    }

    /** Creates the root and each notes folder level that is missing, refusing symlinks and non-folders. */
    private static Path ensureDirectories(Path root) {
        Path current = root;
        ensureDirectory(current, "");
        StringBuilder display = new StringBuilder();
        for (String name : NOTES_DIR) {
            current = current.resolve(name);
            display.append(display.length() == 0 ? "" : "/").append(name);
            ensureDirectory(current, display.toString());
        }
        return current;
    }

    private static void ensureDirectory(Path directory, String display) {
        Optional<BasicFileAttributes> attributes = MemoryPaths.attributesOf(directory);
        if (attributes.isEmpty()) {
            try {
                Files.createDirectory(directory);
            } catch (FileAlreadyExistsException e) {
                ensureDirectory(directory, display); // created meanwhile: check what it is
            } catch (IOException e) {
                throw ToolFailure.io(e);
            }
        } else if (attributes.get().isSymbolicLink()) {
            throw ToolFailure.invalidPath(display, "must not be a symlink");
        } else if (!attributes.get().isDirectory()) {
            throw ToolFailure.invalidPath(display, "must be a directory");
        }
    }

    /** Links the finished temp file to its name (fails if taken); falls back to a checked atomic move. */
    private static void publish(Path temp, Path target, String filename) throws IOException {
        try {
            Files.createLink(target, temp);
        } catch (FileAlreadyExistsException e) {
            throw new ToolFailure("ad-hoc note '" + filename + "' already exists");
        } catch (UnsupportedOperationException | IOException e) {
            if (MemoryPaths.attributesOf(target).isPresent()) {
                throw new ToolFailure("ad-hoc note '" + filename + "' already exists");
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static void deleteQuietly(Path temp) {
        if (temp == null) {
            return;
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            LOG.warn("Could not delete temporary note file {}: {}", temp, e.toString());
        }
    }
}
