package dev.mnemo.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The screen's byte search against {@link String#contains} on the same bytes read as Latin-1, and
 * how much of a file it reads given the size its listing reported.
 */
class RawByteScreenTest {

    @TempDir
    Path dir;

    @Test
    void contains_agreesWithStringContainsOnRandomTexts() {
        Random random = new Random(17);
        // Two letters make every step flagged (the hand-over to String#contains), 256 almost none.
        for (int alphabet : new int[] {2, 3, 8, 26, 256}) {
            for (int round = 0; round < 4_000; round++) {
                byte[] haystack = randomBytes(random, random.nextInt(400), alphabet);
                byte[] needle = random.nextBoolean() && haystack.length > 0
                        ? slice(haystack, random)
                        : randomBytes(random, 1 + random.nextInt(12), alphabet);
                assertThat(RawByteScreen.contains(haystack, haystack.length, needle))
                        .as("alphabet %d, round %d", alphabet, round)
                        .isEqualTo(latin1(haystack, haystack.length).contains(latin1(needle, needle.length)));
            }
        }
    }

    @Test
    void contains_findsANeedleAtEveryOffsetOfALongText() {
        byte[] needle = "zebra-needle".getBytes(StandardCharsets.US_ASCII);
        for (int offset = 0; offset + needle.length <= 300; offset++) {
            byte[] haystack = new byte[300];
            Arrays.fill(haystack, (byte) ' ');
            System.arraycopy(needle, 0, haystack, offset, needle.length);

            assertThat(RawByteScreen.contains(haystack, haystack.length, needle)).as("offset %d", offset).isTrue();
        }
    }

    @Test
    void contains_findsAMatchLongAfterItsFirstByteTurnsOutCommon() {
        byte[] haystack = ("a".repeat(10_000) + "ab").getBytes(StandardCharsets.US_ASCII);

        assertThat(RawByteScreen.contains(haystack, haystack.length, new byte[] {'a', 'b'})).isTrue();
        assertThat(RawByteScreen.contains(haystack, haystack.length, new byte[] {'a', 'c'})).isFalse();
    }

    @Test
    void contains_ignoresBytesPastTheLength() {
        byte[] buffer = new byte[200];
        Arrays.fill(buffer, (byte) '.');
        buffer[150] = 'x';
        buffer[151] = 'y';

        assertThat(RawByteScreen.contains(buffer, 151, new byte[] {'x', 'y'})).isFalse();
        assertThat(RawByteScreen.contains(buffer, 152, new byte[] {'x', 'y'})).isTrue();
        assertThat(RawByteScreen.contains(buffer, 10, "..........!".getBytes(StandardCharsets.US_ASCII))).isFalse();
    }

    @Test
    void mayMatch_stopsReadingOnceTheListedSizeIsIn() throws IOException {
        Path file = write("a.md", "x".repeat(5_000) + " needle\n");
        AtomicInteger reads = new AtomicInteger();

        assertThat(screen("needle").mayMatch(() -> counting(file, Integer.MAX_VALUE, reads), Files.size(file))).isTrue();
        assertThat(reads).as("no further read to find the end").hasValue(1);
    }

    @Test
    void mayMatch_keepsReadingAfterShortReadsUntilTheListedSizeIsIn() throws IOException {
        Path file = write("a.md", "x".repeat(5_000) + " needle\n");
        AtomicInteger reads = new AtomicInteger();

        assertThat(screen("needle").mayMatch(() -> counting(file, 1_000, reads), Files.size(file))).isTrue();
        assertThat(reads).hasValue(6);
    }

    @Test
    void mayMatch_readsToTheEndOfAFileThatGrewSinceItWasListed() throws IOException {
        Path file = write("a.md", "listed\n");
        long listedSize = Files.size(file);
        Files.writeString(file, "listed\n" + "x".repeat(1_000) + " needle\n");

        assertThat(screen("needle").mayMatch(() -> FileChannel.open(file), listedSize)).isTrue();
    }

    @Test
    void mayMatch_readsToTheEndOfAFileThatShrankSinceItWasListed() throws IOException {
        Path file = write("a.md", "x".repeat(1_000) + " needle\n");
        long listedSize = Files.size(file);
        Files.writeString(file, "needle\n");

        assertThat(screen("needle").mayMatch(() -> FileChannel.open(file), listedSize)).isTrue();
        assertThat(screen("absent").mayMatch(() -> FileChannel.open(file), listedSize)).isFalse();
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static RawByteScreen screen(String query) {
        return RawByteScreen.of(new MemorySearch.Request(List.of(query), new MemorySearch.Any(), 0, true, false))
                .orElseThrow();
    }

    /** The file, read at most {@code maxPerRead} bytes at a time, each read counted. */
    private static ReadableByteChannel counting(Path file, int maxPerRead, AtomicInteger reads) throws IOException {
        FileChannel channel = FileChannel.open(file);
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer target) throws IOException {
                reads.incrementAndGet();
                ByteBuffer limited = target.slice(target.position(), Math.min(target.remaining(), maxPerRead));
                int read = channel.read(limited);
                target.position(target.position() + Math.max(read, 0));
                return read;
            }

            @Override
            public boolean isOpen() {
                return channel.isOpen();
            }

            @Override
            public void close() throws IOException {
                channel.close();
            }
        };
    }

    private static byte[] randomBytes(Random random, int length, int alphabet) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) ('a' + random.nextInt(alphabet));
        }
        return bytes;
    }

    private static byte[] slice(byte[] haystack, Random random) {
        int from = random.nextInt(haystack.length);
        int to = from + 1 + random.nextInt(Math.min(12, haystack.length - from));
        return Arrays.copyOfRange(haystack, from, to);
    }

    private static String latin1(byte[] bytes, int length) {
        return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    }
}
