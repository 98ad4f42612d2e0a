package dev.mnemo.internal.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RolloutReaderTest {

    @TempDir
    Path dir;

    @Test
    void read_parsesEveryLineOfEveryFixtureWithoutMalformedLines() throws IOException {
        Map<RolloutLine.Kind, Integer> kinds = new EnumMap<>(RolloutLine.Kind.class);
        long total = 0;
        for (Path fixture : Fixtures.all()) {
            long fileLines = Files.readAllLines(fixture).stream().filter(l -> !l.isBlank()).count();
            List<RolloutLine> lines = new ArrayList<>();
            RolloutReader.ReadStats stats = RolloutReader.read(fixture, lines::add);
            assertThat(stats.malformedLines()).as(fixture.toString()).isZero();
            assertThat(lines).as(fixture.toString()).hasSize((int) fileLines);
            assertThat(lines).allSatisfy(l -> assertThat(l.timestamp()).isPresent());
            lines.forEach(l -> kinds.merge(l.kind(), 1, Integer::sum));
            total += lines.size();
        }
        // Counted with an independent JSON tool over the same files.
        assertThat(kinds).containsEntry(RolloutLine.Kind.SESSION_META, 7)
                .containsEntry(RolloutLine.Kind.TURN_CONTEXT, 336)
                .containsEntry(RolloutLine.Kind.RESPONSE_ITEM, 992)
                .containsEntry(RolloutLine.Kind.EVENT_MSG, 693)
                .doesNotContainKey(RolloutLine.Kind.UNKNOWN);
        assertThat(total).isEqualTo(7 + 336 + 992 + 693);
    }

    @Test
    void read_givesLineNumbersTimestampsAndPayloadTypes() throws IOException {
        List<RolloutLine> lines = new ArrayList<>();
        RolloutReader.read(Fixtures.SESSION_2026, lines::add);

        assertThat(lines).hasSize(11);
        assertThat(lines.get(0).kind()).isEqualTo(RolloutLine.Kind.SESSION_META);
        assertThat(lines.get(0).timestamp()).contains(Instant.parse("2026-06-05T04:58:20.653Z"));
        assertThat(lines.get(1).payloadType()).isEqualTo("task_started");
        assertThat(lines.get(10).lineNumber()).isEqualTo(11);
        assertThat(lines.get(10).payloadType()).isEqualTo("task_complete");
    }

    @Test
    void read_skipsAndCountsMalformedLinesWithoutFailing() throws IOException {
        Path file = dir.resolve("broken.jsonl");
        Files.writeString(file, String.join("\n",
                "{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"a\"}}",
                "not json at all",
                "[1,2,3]",
                "{\"type\":\"response_item\"}",
                "{\"type\":42,\"payload\":{}}",
                "{\"timestamp\":\"2026-01-01T00:00:01.000Z\",\"type\":\"event_msg\",\"payload\":{}} trailing",
                "",
                "{\"timestamp\":\"yesterday\",\"type\":\"brand_new_kind\",\"payload\":{\"x\":1}}",
                "{\"timestamp\":\"2026-01-01T00:00:02.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"mess"));
        List<RolloutLine> lines = new ArrayList<>();

        RolloutReader.ReadStats stats = RolloutReader.read(file, lines::add);

        assertThat(stats.malformedLines()).isEqualTo(6);
        assertThat(stats.lines()).isEqualTo(9);
        assertThat(lines).extracting(RolloutLine::kind)
                .containsExactly(RolloutLine.Kind.SESSION_META, RolloutLine.Kind.UNKNOWN);
        assertThat(lines.get(1).type()).isEqualTo("brand_new_kind");
        assertThat(lines.get(1).timestamp()).isEmpty();
    }

    @Test
    void read_replacesInvalidUtf8InsteadOfFailing() throws IOException {
        Path file = dir.resolve("latin1.jsonl");
        byte[] prefix = "{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":\"event_msg\",\"payload\":{\"message\":\"caf"
                .getBytes(StandardCharsets.UTF_8);
        byte[] suffix = "\"}}\n".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[prefix.length + 1 + suffix.length];
        System.arraycopy(prefix, 0, bytes, 0, prefix.length);
        bytes[prefix.length] = (byte) 0xE9; // 'é' in Latin-1, invalid as UTF-8
        System.arraycopy(suffix, 0, bytes, prefix.length + 1, suffix.length);
        Files.write(file, bytes);
        List<RolloutLine> lines = new ArrayList<>();

        RolloutReader.ReadStats stats = RolloutReader.read(file, lines::add);

        assertThat(stats.malformedLines()).isZero();
        assertThat(lines.get(0).payload().get("message").asText()).isEqualTo("caf\uFFFD");
    }

    @Test
    void read_splitsCrlfAndUnterminatedLastLinesAndLinesAcrossBufferBoundaries() throws IOException {
        Path file = dir.resolve("crlf.jsonl");
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 3_000; i++) { // ~300 KB: several 64 KiB buffer refills inside lines
            text.append("{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":\"event_msg\",\"payload\":{\"n\":")
                    .append(i).append(",\"pad\":\"").append("é".repeat(i % 40)).append("\"}}")
                    .append(i % 2 == 0 ? "\r\n" : "\n");
            if (i % 500 == 0) {
                text.append("   \r\n");
            }
        }
        text.append("{\"type\":\"event_msg\",\"payload\":{\"n\":3000}}"); // no final newline
        Files.writeString(file, text);
        List<RolloutLine> lines = new ArrayList<>();

        RolloutReader.ReadStats stats = RolloutReader.read(file, lines::add);

        assertThat(stats.malformedLines()).isZero();
        assertThat(lines).hasSize(3_001);
        for (int i = 0; i <= 3_000; i++) {
            assertThat(lines.get(i).payload().get("n").asInt()).isEqualTo(i);
        }
        assertThat(lines.get(39).payload().get("pad").asText()).isEqualTo("é".repeat(39));
    }

    @Test
    void indexOfNewline_findsTheFirstNewlineLikeAByteByByteSearch() {
        java.util.Random random = new java.util.Random(17);
        byte[] alphabet = {'\n', '\r', 'a', '"', 0x0B, (byte) 0x8A, (byte) 0xFF, 0x00, 0x09, 0x1A};
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = new byte[random.nextInt(40)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = random.nextInt(8) == 0 ? alphabet[random.nextInt(alphabet.length)] : (byte) random.nextInt(256);
            }
            int from = bytes.length == 0 ? 0 : random.nextInt(bytes.length + 1);
            int to = from + random.nextInt(bytes.length - from + 1);
            int expected = -1;
            for (int i = from; i < to && expected < 0; i++) {
                expected = bytes[i] == '\n' ? i : -1;
            }
            assertThat(RolloutReader.indexOfNewline(bytes, from, to)).isEqualTo(expected);
        }
    }

    @Test
    void read_handlesALineLongerThanJacksonsDefaultStringLimit() throws IOException {
        Path file = dir.resolve("big.jsonl");
        String big = "x".repeat(21_000_000);
        Files.writeString(file, "{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":\"response_item\",\"payload\":"
                + "{\"type\":\"function_call_output\",\"call_id\":\"c\",\"output\":\"" + big + "\"}}\n");
        List<RolloutLine> lines = new ArrayList<>();

        RolloutReader.ReadStats stats = RolloutReader.read(file, lines::add);

        assertThat(stats.malformedLines()).isZero();
        assertThat(lines.get(0).payload().get("output").asText()).hasSize(big.length());
    }

    @Test
    void read_compressedRolloutGivesTheSameLinesAsItsPlainSource() throws IOException {
        List<RolloutLine> plain = new ArrayList<>();
        List<RolloutLine> compressed = new ArrayList<>();

        RolloutReader.ReadStats plainStats = RolloutReader.read(CompressedFixtures.FULL_SESSION_PLAIN, plain::add);
        RolloutReader.ReadStats stats = RolloutReader.read(CompressedFixtures.FULL_SESSION, compressed::add);

        assertThat(stats).isEqualTo(plainStats);
        assertThat(compressed).hasSize(plain.size()).hasSizeGreaterThan(100);
        for (int i = 0; i < plain.size(); i++) {
            assertThat(compressed.get(i).payload()).isEqualTo(plain.get(i).payload());
            assertThat(compressed.get(i).timestamp()).isEqualTo(plain.get(i).timestamp());
        }
    }

    @Test
    void read_truncatedCompressedRolloutFailsWithIoExceptionNamingTheFile() {
        assertThatThrownBy(() -> RolloutReader.read(CompressedFixtures.TRUNCATED, line -> {}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt or truncated zstd data")
                .hasMessageContaining(CompressedFixtures.TRUNCATED.toString());
    }

    @Test
    void read_zstFileThatIsNotZstdFailsWithIoExceptionNamingTheFile() throws IOException {
        Path file = dir.resolve("rollout-2026-01-01T00-00-00-x.jsonl.zst");
        Files.writeString(file, "{\"type\":\"session_meta\"} is plain text, not zstd\n");

        assertThatThrownBy(() -> RolloutReader.read(file, line -> {}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("zstd")
                .hasMessageContaining(file.toString());
    }

    @Test
    void read_failsWithIoExceptionForMissingFile() {
        assertThatThrownBy(() -> RolloutReader.read(dir.resolve("missing.jsonl"), line -> {}))
                .isInstanceOf(IOException.class);
    }
}
