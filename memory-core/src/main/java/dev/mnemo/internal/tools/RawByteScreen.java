package dev.mnemo.internal.tools;

import dev.mnemo.internal.sandbox.ToolFailure;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A first look at a file's raw bytes for a case-sensitive, un-normalised search: a file in which
 * none of the queries' UTF-8 encodings occurs cannot match, so it is neither decoded nor split into
 * lines. Most files of a large memory folder end here, after one read into a buffer reused from
 * file to file.
 *
 * <p>Why this changes no result: a file that is not UTF-8 is skipped by the search anyway, and in
 * valid UTF-8 a query without surrogates occurs in the decoded text exactly when its encoding
 * occurs in the bytes (UTF-8 is self-synchronising: an encoded character never starts inside
 * another). A file that passes is searched exactly as before, from a fresh strict read. Queries
 * with surrogates, case folding and normalising do not map onto bytes this way; such requests get
 * no screen.
 */
final class RawByteScreen {

    /** Files larger than this are not screened, only searched (the buffer stays small). */
    static final int MAX_SCREENED_BYTES = 16 * 1024 * 1024;

    private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

    /** Each query's UTF-8 bytes as a Latin-1 string, one char per byte, for the JDK's substring search. */
    private final List<String> encodedQueries;
    private byte[] buffer = new byte[INITIAL_BUFFER_BYTES];

    private RawByteScreen(List<String> encodedQueries) {
        this.encodedQueries = encodedQueries;
    }

    /** A screen for {@code request}, or empty when its matching cannot be decided on raw bytes. */
    static Optional<RawByteScreen> of(MemorySearch.Request request) {
        if (!request.caseSensitive() || request.normalized()
                || request.queries().stream().anyMatch(RawByteScreen::hasSurrogate)) {
            return Optional.empty();
        }
        return Optional.of(new RawByteScreen(request.queries().stream()
                .map(query -> new String(query.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1))
                .toList()));
    }

    /**
     * False when the file's bytes contain no query, so the file cannot match; true when one is
     * there or the file is too large to screen.
     *
     * @throws ToolFailure when the file cannot be read, as the search itself would fail
     */
    boolean mayMatch(MemoryPaths.Opener file) {
        int length;
        try (SeekableByteChannel channel = file.open()) {
            length = readAll(channel);
        } catch (IOException e) {
            throw ToolFailure.io(e);
        }
        if (length < 0) {
            return true;
        }
        // Latin-1 maps each byte to one char, so this is a byte-wise search, vectorised by the JDK.
        String bytes = new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
        for (String query : encodedQueries) {
            if (bytes.contains(query)) {
                return true;
            }
        }
        return false;
    }

    /** Reads the whole file into {@link #buffer}; its length, or -1 past {@link #MAX_SCREENED_BYTES}. */
    private int readAll(SeekableByteChannel channel) throws IOException {
        int length = 0;
        while (true) {
            if (length == buffer.length) {
                if (length >= MAX_SCREENED_BYTES) {
                    return -1;
                }
                buffer = Arrays.copyOf(buffer, Math.min(buffer.length * 2, MAX_SCREENED_BYTES));
            }
            int read = channel.read(ByteBuffer.wrap(buffer, length, buffer.length - length));
            if (read < 0) {
                return length;
            }
            length += read;
        }
    }

    private static boolean hasSurrogate(String query) {
        for (int i = 0; i < query.length(); i++) {
            if (Character.isSurrogate(query.charAt(i))) {
                return true;
            }
        }
        return false;
    }
}
