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

/**
 * A memory file's text with the SHA-256 and size of its bytes as read, so what the instructions
 * injected can be named in a receipt without its content.
 *
 * @param text the file's text (strict UTF-8)
 * @param sha256 lowercase hex SHA-256 of the bytes
 * @param bytes how many bytes were read
 */
record FileText(String text, String sha256, long bytes) {

    /**
     * Reads {@code file} once; as strict about UTF-8 as {@link Files#readString}.
     *
     * @throws java.nio.charset.CharacterCodingException when it is not valid UTF-8
     */
    static FileText read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        return new FileText(text, sha256Hex(bytes), bytes.length);
    }

    /** The same file, its text replaced (stripped, say). */
    FileText withText(String newText) {
        return new FileText(newText, sha256, bytes);
    }

    static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
