package dev.mnemo.internal.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A line {@link CodexShapedLine} reads without Jackson's tokenizer must come out exactly as
 * Jackson reads it ({@link RolloutReader#parseLineWithJackson}): the same {@link RolloutLine},
 * payload tree included, or malformed both ways. Checked on every fixture line, on adversarial
 * payloads in each of its three paths (payload not wanted and only checked, wanted by its type
 * alone, built), and on seeded random damage to real lines.
 */
class CodexShapedLineTest {

    private static final String PREFIX = "{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":";

    /** What Phase 1 reads: response items only, reasoning and other never-rendered kinds by their type alone. */
    private static final Predicate<RolloutLine.Kind> RESPONSE_ITEMS = kind -> kind == RolloutLine.Kind.RESPONSE_ITEM;
    private static final Predicate<String> NOT_RENDERED = type -> !Set.of("message", "function_call",
            "function_call_output", "custom_tool_call", "custom_tool_call_output").contains(type);

    private static final List<Predicate<RolloutLine.Kind>> WANTED = List.of(kind -> true, RESPONSE_ITEMS, kind -> false);
    private static final List<Predicate<String>> TYPE_ALONE = List.of(type -> false, NOT_RENDERED, type -> true);

    @Test
    void everyFixtureLine_readsAsJacksonReadsIt_withoutJackson() throws IOException {
        int lines = 0;
        int shaped = 0;
        for (Path fixture : Fixtures.all()) {
            for (String line : Files.readAllLines(fixture, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
                assertSameAsJackson(bytes);
                lines++;
                if (new CodexShapedLine().read(1, bytes, 0, bytes.length, RESPONSE_ITEMS, NOT_RENDERED) != null) {
                    shaped++;
                }
            }
        }
        assertThat(lines).isEqualTo(2028);
        assertThat(shaped).as("lines read without Jackson").isEqualTo(lines);
    }

    @Test
    void adversarialPayloads_readAsJacksonReadsThem() {
        List<String> payloads = List.of(
                "{}",
                "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"say \\\"hi\\\" \\\\ \\/ \\b\\f\\n\\r\\t\"}]}",
                "{\"type\":\"message\",\"content\":[{\"type\":\"input_text\",\"text\":\"caf\\u00e9 \\u2026 \\uD83D\\uDE00 \\u0000 é … 😀\"}]}",
                "{\"type\":\"message\",\"text\":\"lone \\uD83D high\"}",
                "{\"type\":\"message\",\"text\":\"lone \\uDE00 low\"}",
                "{\"type\":\"message\",\"text\":\"pair split \\uD83D\\n\"}",
                "{\"type\":\"message\",\"text\":\"bad \\uZZZZ hex\"}",
                "{\"type\":\"message\",\"text\":\"short \\u12\"}",
                "{\"type\":\"message\",\"text\":\"bad \\x escape\"}",
                "{\"type\":\"message\",\"text\":\"raw\ttab\"}",
                "{\"type\":\"message\",\"role\":\"user\",\"role\":\"assistant\"}",
                "{\"type\":\"reasoning\",\"type\":\"message\",\"role\":\"user\"}",
                "{\"type\":\"reasoning\",\"typ\\u0065\":\"message\"}",
                "{\"type\":\"message\",\"content\":[{\"type\":\"input_text\",\"text\":\"a\",\"text\":\"b\"}]}",
                "{\"type\":\"function_call\",\"name\":\"shell\",\"unknown\":{\"deep\":[1,2.5,-3e10,true,false,null]},\"call_id\":\"c\"}",
                "{\"type\":\"function_call\",\"name\":null,\"arguments\":{\"cmd\":[\"ls\",\"-l\"]},\"call_id\":7}",
                "{\"type\":\"function_call_output\",\"call_id\":\"c\",\"output\":[{\"type\":\"input_text\",\"text\":\"x\"},{\"type\":\"input_image\"}]}",
                "{\"type\":\"message\",\"content\":\"just a string\",\"phase\":false}",
                "{\"type\":\"message\",\"n\":0,\"m\":-0,\"f\":0.5,\"e\":1E+2,\"big\":123456789012345678901234567890}",
                "{\"type\":\"message\",\"n\":01}",
                "{\"type\":\"message\",\"n\":1.}",
                "{\"type\":\"message\",\"n\":.5}",
                "{\"type\":\"message\",\"n\":-}",
                "{\"type\":\"message\",\"n\":+1}",
                "{\"type\":\"message\",\"n\":1e}",
                "{\"type\":\"message\",\"n\":NaN}",
                "{\"type\":\"message\",\"b\":tru}",
                "{\"type\":\"message\",\"b\":truex}",
                "{\"type\":\"message\",\"b\":nul}",
                "{\"type\":\"message\",\"a\":[1,]}",
                "{\"type\":\"message\",\"a\":[,1]}",
                "{\"type\":\"message\",\"a\":{\"k\":1,}}",
                "{\"type\":\"message\",\"a\" \"b\"}",
                "{\"type\":\"message\",'a':'b'}",
                "{\"type\":\"message\",/* c */\"a\":1}",
                "{\"type\":\"message\",\"a\":1 // c\n}",
                "{ \"type\" : \"message\" , \"a\" : [ 1 , { } , [ ] ] \r\n\t}",
                "{\"type\":\"message\",\"a\":[1 2]}",
                "{\"type\":\"message\",\"a\":{\"k\"}}",
                "{\"type\":\"message\",\"a\":{\"k\":}}",
                "{\"type\":\"message\"",
                "{\"type\":\"message\",\"text\":\"unterminated}",
                "{\"type\":\"reasoning\",\"encrypted_content\":\"gAAAA" + "x".repeat(5000) + "\"}",
                "{\"type\":\"message\",\"a\":" + nested(150) + "}",
                "{\"type\":\"message\",\"a\":" + nested(250) + "}",
                "{\"type\":\"message\",\"a\":" + nested(1200) + "}",
                "{\"type\":\"message\",\"" + "k".repeat(2000) + "\":1}",
                "{\"type\":\"message\",\"n\":" + "9".repeat(200) + "}");
        for (String payload : payloads) {
            for (String type : List.of("\"event_msg\"", "\"response_item\"", "\"turn_context\"")) {
                assertSameAsJackson(utf8(PREFIX + type + ",\"payload\":" + payload + "}"));
            }
        }
    }

    @Test
    void adversarialLines_readAsJacksonReadsThem() {
        String good = PREFIX + "\"event_msg\",\"payload\":{\"type\":\"token_count\"}}";
        List<String> lines = List.of(
                good,
                good + "   \t\r",
                good + " x",
                good + "}",
                good + "{}",
                good.replace("}}", "} }"),
                good.replace("}}", "},\"type\":\"response_item\"}"),
                good.replace("}}", "},\"payload\":{\"type\":\"message\"}}"),
                good.replace("\"payload\":", "\"payload\" :"),
                good.replace("\"payload\":{", "\"payload\":[{").replace("}}", "}]}"),
                good.replace("\"payload\":{\"type\":\"token_count\"}", "\"payload\":null"),
                good.replace("2026-01-01T00:00:00.000Z", "2026\\u002d01"),
                good.replace("2026-01-01T00:00:00.000Z", "caf\u00e9"),
                good.replace("\"event_msg\"", "\"event\\u005fmsg\""),
                good.replace("\"event_msg\"", "\"\""),
                good.replace("\"event_msg\"", "\"brand_new_kind\""),
                "\uFEFF" + good,
                " " + good,
                good.substring(0, good.length() - 1),
                "{\"timestamp\":\"t\",\"type\":\"event_msg\"}",
                "{\"timestamp\":\"t\",\"type\":\"event_msg\",\"payload\":{}}",
                "{\"timestamp\":\"t\",\"type\":\"response_item\",\"payload\":{\"type\":\"reasoning\"}}",
                "{\"timestamp\":\"t\",\"type\":\"response_item\",\"payload\":{\"type\":\"reasoning\",\"type\":\"reasoning\"}}");
        for (String line : lines) {
            assertSameAsJackson(utf8(line));
        }
    }

    @Test
    void invalidUtf8_readsAsJacksonReadsIt() {
        byte[][] sequences = {
            {(byte) 0x80}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xC3}, {(byte) 0xE2, (byte) 0x82},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0xF0, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xE0, (byte) 0x9F, (byte) 0xBF}, {(byte) 0xFF}, {0x01}, {0x1F}, {0x7F},
            {(byte) 0xC3, (byte) 0xA9}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80},
        };
        for (byte[] sequence : sequences) {
            for (String payload : List.of("{\"type\":\"message\",\"text\":\"a?b\"}", "{\"type\":\"reasoning\",\"s\":\"a?b\"}",
                    "{\"type\":\"message\",\"a?\":1}")) {
                for (String type : List.of("\"event_msg\"", "\"response_item\"")) {
                    assertSameAsJackson(replaceQuestionMark(utf8(PREFIX + type + ",\"payload\":" + payload + "}"), sequence));
                }
            }
        }
    }

    /** Real lines cut short, and with seeded random bytes changed, inserted and deleted. */
    @Test
    void damagedFixtureLines_readAsJacksonReadsThem() throws IOException {
        List<byte[]> samples = new ArrayList<>();
        for (Path fixture : Fixtures.fullSessions()) {
            List<String> lines = Files.readAllLines(fixture, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i += 7) {
                samples.add(utf8(lines.get(i)));
            }
        }
        Random random = new Random(0x5EED_0017L);
        byte[] alphabet = utf8("{}[]\":,\\ntrufalsel0123456789-+.eE \tu/\u00e9x");
        int checked = 0;
        for (byte[] sample : samples) {
            for (int cut : new int[] {1, 2, 13, sample.length / 3, sample.length / 2, sample.length - 2, sample.length - 1}) {
                assertSameAsJacksonForPhase1(Arrays.copyOf(sample, Math.max(0, Math.min(cut, sample.length))));
            }
            for (int v = 0; v < 12; v++) {
                byte[] damaged = sample.clone();
                int at = random.nextInt(damaged.length);
                switch (v % 3) {
                    case 0:
                        damaged[at] = alphabet[random.nextInt(alphabet.length)];
                        break;
                    case 1:
                        damaged = splice(damaged, at, 0, alphabet[random.nextInt(alphabet.length)]);
                        break;
                    default:
                        damaged = splice(damaged, at, 1);
                        break;
                }
                assertSameAsJacksonForPhase1(damaged);
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(3000);
    }

    /**
     * A whole read, where Codex-shaped lines are read straight from the buffer (their newline found
     * by reading them), gives what splitting on newlines and reading each line with Jackson gives:
     * with CRLF line ends, blank lines, no final newline, lines longer than the read buffer, and
     * seeded damage.
     */
    @Test
    void wholeReads_giveTheLinesOfALineByLineJacksonRead(@TempDir Path dir) throws IOException {
        Random random = new Random(0x5EED_0018L);
        int files = 0;
        for (Path fixture : Fixtures.fullSessions()) {
            byte[] original = Files.readAllBytes(fixture);
            List<byte[]> variants = new ArrayList<>(List.of(original,
                    utf8(new String(original, StandardCharsets.UTF_8).replace("\n", "\r\n")),
                    Arrays.copyOf(original, original.length - 1),
                    utf8("\n  \n" + new String(original, StandardCharsets.UTF_8).replace("}\n{", "}\n\n \t\n{"))));
            for (int v = 0; v < 6; v++) {
                byte[] damaged = original.clone();
                String alphabet = "{}\":,\\\n\r 0e-";
                for (int k = 0; k < 20; k++) {
                    damaged[random.nextInt(damaged.length)] = (byte) alphabet.charAt(random.nextInt(alphabet.length()));
                }
                variants.add(damaged);
            }
            for (byte[] variant : variants) {
                Path file = dir.resolve("variant-" + files++ + ".jsonl");
                Files.write(file, variant);
                List<RolloutLine> read = new ArrayList<>();
                RolloutReader.ReadStats stats = RolloutReader.read(file, RESPONSE_ITEMS, NOT_RENDERED, read::add);
                List<RolloutLine> expected = new ArrayList<>();
                long malformed = readLineByLineWithJackson(variant, expected);
                assertThat(read).as(file.toString()).isEqualTo(expected);
                assertThat(stats.malformedLines()).as(file.toString()).isEqualTo(malformed);
            }
        }
        assertThat(files).isEqualTo(50);
    }

    /**
     * A rollout arriving a few bytes a read (as from a decompressing stream), so that lines are cut
     * at every kind of place and the shaped read gives up on partial lines, reads as the file does.
     */
    @Test
    void trickledReads_giveTheLinesOfAWholeRead() throws IOException {
        Random random = new Random(0x7E1C_0001L);
        for (Path fixture : Fixtures.fullSessions()) {
            byte[] bytes = Files.readAllBytes(fixture);
            List<RolloutLine> whole = new ArrayList<>();
            RolloutReader.ReadStats wholeStats = RolloutReader.read(fixture, RESPONSE_ITEMS, NOT_RENDERED, whole::add);
            List<RolloutLine> trickled = new ArrayList<>();
            InputStream trickle = new ByteArrayInputStream(bytes) {
                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    return super.read(b, off, Math.min(len, 1 + random.nextInt(4_000)));
                }
            };
            RolloutReader.ReadStats stats = RolloutReader.read(trickle, fixture.toString(), RESPONSE_ITEMS, NOT_RENDERED,
                    trickled::add);
            assertThat(trickled).as(fixture.toString()).isEqualTo(whole);
            assertThat(stats).isEqualTo(wholeStats);
        }
    }

    /** Splits on newlines as the reader does and reads every non-blank line with Jackson; the malformed count. */
    private static long readLineByLineWithJackson(byte[] bytes, List<RolloutLine> sink) {
        long malformed = 0;
        long lineNumber = 0;
        int start = 0;
        while (start < bytes.length) {
            int newline = start;
            while (newline < bytes.length && bytes[newline] != '\n') {
                newline++;
            }
            int length = newline - start;
            if (length > 0 && bytes[newline - 1] == '\r') {
                length--;
            }
            lineNumber++;
            if (!blank(bytes, start, length)) {
                Optional<RolloutLine> line = RolloutReader.parseLineWithJackson(lineNumber, bytes, start, length,
                        RESPONSE_ITEMS, NOT_RENDERED);
                if (line.isPresent()) {
                    sink.add(line.get());
                } else {
                    malformed++;
                }
            }
            start = newline + 1;
        }
        return malformed;
    }

    private static boolean blank(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (" \t\r\n\u000B\f".indexOf(bytes[i]) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Reads {@code line} both ways under every combination of wanted kinds and types asked alone. */
    private static void assertSameAsJackson(byte[] line) {
        for (Predicate<RolloutLine.Kind> wanted : WANTED) {
            for (Predicate<String> typeAlone : TYPE_ALONE) {
                assertSameAsJackson(line, wanted, typeAlone);
            }
        }
    }

    /** Reads {@code line} both ways as Phase 1 does, and with every payload built, and with none. */
    private static void assertSameAsJacksonForPhase1(byte[] line) {
        assertSameAsJackson(line, RESPONSE_ITEMS, NOT_RENDERED);
        assertSameAsJackson(line, kind -> true, type -> false);
        assertSameAsJackson(line, kind -> false, type -> false);
    }

    private static void assertSameAsJackson(byte[] line, Predicate<RolloutLine.Kind> wanted, Predicate<String> typeAlone) {
        Optional<RolloutLine> jackson = RolloutReader.parseLineWithJackson(3, line, 0, line.length, wanted, typeAlone);
        Optional<RolloutLine> read = RolloutReader.parseLine(3, line, 0, line.length, wanted, typeAlone);
        assertThat(read).as(new String(line, StandardCharsets.UTF_8)).isEqualTo(jackson);
        if (read.isPresent()) {
            assertThat(read.get().payload().toString()).isEqualTo(jackson.get().payload().toString());
        }
    }

    private static String nested(int depth) {
        return "[".repeat(depth) + "\"x\"" + "]".repeat(depth);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] replaceQuestionMark(byte[] line, byte[] sequence) {
        for (int i = 0; i < line.length; i++) {
            if (line[i] == '?') {
                return splice(line, i, 1, sequence);
            }
        }
        throw new IllegalArgumentException("no ? in the line");
    }

    private static byte[] splice(byte[] bytes, int at, int remove, byte... insert) {
        byte[] result = new byte[bytes.length - remove + insert.length];
        System.arraycopy(bytes, 0, result, 0, at);
        System.arraycopy(insert, 0, result, at, insert.length);
        System.arraycopy(bytes, at + remove, result, at + insert.length, bytes.length - at - remove);
        return result;
    }
}
