package dev.mnemo.internal.read;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reading one {@code memory_summary.md}: strict UTF-8, stripped, blank as none, failures logged. */
final class SummaryText {

    private static final Logger LOG = LoggerFactory.getLogger(SummaryText.class);

    private SummaryText() {}

    /** The file's text, stripped, with its bytes' hash and size; null when blank. Strict about UTF-8. */
    static FileText read(Path file) throws IOException {
        FileText read = FileText.read(file).stripped();
        return read.text().isEmpty() ? null : read;
    }

    /**
     * The summary now, or empty when it is missing, blank, not UTF-8 or unreadable (said in the log).
     *
     * @param root the memory folder's stamp ({@link StampedPath.Folder#stamp()}), or null
     */
    static Optional<FileText> get(StampedPath<FileText> file, StampedPath.FolderStamp root, String which) {
        try {
            return Optional.ofNullable(file.getOrElse(null, root));
        } catch (CharacterCodingException e) {
            LOG.warn("The {} memory summary is not valid UTF-8; instructions leave it out", which);
        } catch (IOException e) {
            LOG.warn("Cannot read the {} memory summary ({}); instructions leave it out", which, e.toString());
        }
        return Optional.empty();
    }
}
