package dev.mnemo.internal.tools;

import dev.mnemo.internal.sandbox.ToolFailure;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
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
 *
 * <p>The bytes are searched where they were read, eight at a time (see {@link #contains}); copying
 * each file into a {@code String} for the JDK's substring search cost as much as the search itself.
 */
final class RawByteScreen {

    /** Files larger than this are not screened, only searched (the buffer stays small). */
    static final int MAX_SCREENED_BYTES = 16 * 1024 * 1024;

    private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

    /** A byte array read as little-endian {@code long}s, for {@link #contains}. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    /** Bytes looked at a step of {@link #contains}: four {@code long}s. */
    private static final int STEP = 4 * Long.BYTES;
    /** Flagged steps {@link #contains} checks one by one before it hands a text over, besides a quarter of all. */
    private static final int FLAGGED_STEPS_ALLOWED = 4;

    /** Each query's UTF-8 bytes. */
    private final List<byte[]> encodedQueries;
    private byte[] buffer = new byte[INITIAL_BUFFER_BYTES];

    private RawByteScreen(List<byte[]> encodedQueries) {
        this.encodedQueries = encodedQueries;
    }

    /** A screen for {@code request}, or empty when its matching cannot be decided on raw bytes. */
    static Optional<RawByteScreen> of(MemorySearch.Request request) {
        if (!request.caseSensitive() || request.normalized()
                || request.queries().stream().anyMatch(RawByteScreen::hasSurrogate)) {
            return Optional.empty();
        }
        return Optional.of(new RawByteScreen(request.queries().stream()
                .map(query -> query.getBytes(StandardCharsets.UTF_8))
                .toList()));
    }

    /**
     * False when the file's bytes contain no query, so the file cannot match; true when one is
     * there or the file is too large to screen.
     *
     * <p>{@code listedSize} is the file's size as its folder was listed. Reading stops as soon as
     * that many bytes are in, without the further read that would only report the end of the file.
     * That differs from reading to the end only for a file that grew after it was listed: it is
     * screened as it was listed, as if the search had passed it a moment earlier, which a search
     * reading one file after another cannot rule out anyway. A file that comes back short of its
     * listed size, or longer, is read on to its end.
     *
     * @throws ToolFailure when the file cannot be read, as the search itself would fail
     */
    boolean mayMatch(MemoryPaths.Opener file, long listedSize) {
        int length;
        try (ReadableByteChannel channel = file.open()) {
            length = readAll(channel, listedSize);
        } catch (IOException e) {
            throw ToolFailure.io(e);
        }
        if (length < 0) {
            return true;
        }
        for (byte[] query : encodedQueries) {
            if (contains(buffer, length, query)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code needle} (not empty) occurs in {@code haystack[0, length)}.
     *
     * <p>Looks for the needle's first byte 32 bytes a step, as four {@code long}s tested for a zero
     * byte after an XOR with that byte repeated (SWAR: the test may flag a byte above a real zero, never
     * miss one), and compares the needle only at the flagged steps' positions. Where the first byte is
     * common in this text (more steps flagged than {@link #FLAGGED_STEPS_ALLOWED} and a quarter of the
     * steps so far), the rest is handed to {@link String#contains}, whose JDK intrinsic does not slow
     * down on common bytes but needs the bytes copied into a Latin-1 string, one char per byte. Every
     * position before the hand-over has been checked, since a match's first byte flags its own step.
     * Bytes at and past {@code length} are never read.
     */
    static boolean contains(byte[] haystack, int length, byte[] needle) {
        byte first = needle[0];
        long repeated = ONES * (first & 0xFF);
        int lastStart = length - needle.length;
        int flaggedSteps = 0;
        int at = 0;
        for (; at + STEP <= length; at += STEP) {
            long flags = zeroBytes((long) LONGS.get(haystack, at) ^ repeated)
                    | zeroBytes((long) LONGS.get(haystack, at + Long.BYTES) ^ repeated)
                    | zeroBytes((long) LONGS.get(haystack, at + 2 * Long.BYTES) ^ repeated)
                    | zeroBytes((long) LONGS.get(haystack, at + 3 * Long.BYTES) ^ repeated);
            if (flags == 0) {
                continue;
            }
            if (++flaggedSteps > FLAGGED_STEPS_ALLOWED + at / (4 * STEP)) {
                return new String(haystack, at, length - at, StandardCharsets.ISO_8859_1)
                        .contains(new String(needle, StandardCharsets.ISO_8859_1));
            }
            for (int start = at, end = Math.min(at + STEP - 1, lastStart); start <= end; start++) {
                if (haystack[start] == first && startsAt(haystack, start, needle)) {
                    return true;
                }
            }
        }
        for (; at <= lastStart; at++) {
            if (haystack[at] == first && startsAt(haystack, at, needle)) {
                return true;
            }
        }
        return false;
    }

    /** The high bit of each zero byte of {@code word} set (and maybe of bytes above one), nothing else. */
    private static long zeroBytes(long word) {
        return (word - ONES) & ~word & HIGH_BITS;
    }

    private static boolean startsAt(byte[] haystack, int start, byte[] needle) {
        return Arrays.equals(haystack, start, start + needle.length, needle, 0, needle.length);
    }

    /**
     * Reads the file into {@link #buffer} until its end, or until {@code listedSize} bytes are in
     * (see {@link #mayMatch}); the length read, or -1 past {@link #MAX_SCREENED_BYTES}.
     */
    private int readAll(ReadableByteChannel channel, long listedSize) throws IOException {
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
            if (length == listedSize) {
                return length;
            }
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
