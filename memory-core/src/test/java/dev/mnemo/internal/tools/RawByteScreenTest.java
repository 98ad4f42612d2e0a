package dev.mnemo.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The screen's byte search against {@link String#contains} on the same bytes read as Latin-1. */
class RawByteScreenTest {

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
