package dev.mnemo.internal.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A memory file's text with the SHA-256 and size of its bytes as read, so what the instructions
 * injected can be named in a receipt without its content.
 *
 * <p>The text may be {@linkplain #release() let go of} once what was derived from it is kept (a
 * summary's rendering is): an open engine then holds the rendering, not the file's text too, which
 * for a 40 KB summary was most of an idle engine's heap. {@link #text()} reads the file again when
 * it is next asked for, which only a new rendering does. Instances are compared by identity: the
 * same instance means the same, unchanged file (see {@link StampedPath}).
 */
final class FileText {

    private static final Logger LOG = LoggerFactory.getLogger(FileText.class);

    private final Path file;
    private final boolean stripped;
    private final String sha256;
    private final long bytes;
    /** The text, or null once released. */
    private volatile String text;

    private FileText(Path file, boolean stripped, String text, String sha256, long bytes) {
        this.file = Objects.requireNonNull(file, "file");
        this.stripped = stripped;
        this.text = Objects.requireNonNull(text, "text");
        this.sha256 = sha256;
        this.bytes = bytes;
    }

    /**
     * Reads {@code file} once; as strict about UTF-8 as {@link Files#readString}.
     *
     * @throws java.nio.charset.CharacterCodingException when it is not valid UTF-8
     */
    static FileText read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return new FileText(file, false, decode(bytes), sha256Hex(bytes), bytes.length);
    }

    /** The bytes as strict UTF-8. */
    private static String decode(byte[] bytes) throws IOException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    }

    /** The same file with its text stripped of leading and trailing white space (also when read again). */
    FileText stripped() {
        return new FileText(file, true, text().strip(), sha256, bytes);
    }

    /**
     * The file's text (strict UTF-8), stripped if this is the {@link #stripped()} form. Once
     * {@linkplain #release() released} the file is read again; should it have changed meanwhile,
     * the text is the new one (its stamp has changed too, so the next build starts over from it),
     * and should it be gone, unreadable or no longer UTF-8, the text is empty.
     */
    String text() {
        String held = text;
        return held != null ? held : reread();
    }

    /** Lowercase hex SHA-256 of the bytes as read. */
    String sha256() {
        return sha256;
    }

    /** How many bytes were read. */
    long bytes() {
        return bytes;
    }

    /** Lets go of the text; {@link #text()} reads the file again if it is asked for later. */
    void release() {
        text = null;
    }

    /** The text read again, not hashed again: whether the file changed is for its stamp to say. */
    private String reread() {
        try {
            String again = decode(Files.readAllBytes(file));
            return stripped ? again.strip() : again;
        } catch (IOException e) {
            LOG.debug("{} could not be read again ({}); its text counts as empty", file, e.toString());
            return "";
        }
    }

    static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
