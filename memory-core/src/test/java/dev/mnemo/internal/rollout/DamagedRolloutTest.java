package dev.mnemo.internal.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every real fixture rollout, cut at seeded random byte offsets and with seeded garbage lines
 * inserted: the reader never throws and delivers every well-formed line that survived, in order.
 */
class DamagedRolloutTest {

    private static final int VARIANTS_PER_FILE = 25;

    @TempDir
    Path dir;

    @Test
    void read_survivesTruncationAndGarbage_andKeepsEveryIntactLine() throws IOException {
        long seed = 0x5EED_0008L;
        int checked = 0;
        for (Path fixture : Fixtures.all()) {
            byte[] original = Files.readAllBytes(fixture);
            List<String> originalLines = Files.readAllLines(fixture, StandardCharsets.UTF_8);
            for (int v = 0; v < VARIANTS_PER_FILE; v++) {
                Random random = new Random(seed++);
                Damaged damaged = damage(original, originalLines, random);
                Path file = dir.resolve("rollout-damaged-" + checked + ".jsonl");
                Files.write(file, damaged.bytes());
                List<String> seen = new ArrayList<>();
                RolloutReader.ReadStats stats = RolloutReader.read(file, line -> seen.add(line.type()));
                List<String> expected = new ArrayList<>();
                for (String intact : damaged.intactLines()) {
                    RolloutReader.parseLine(1, intact).ifPresent(line -> expected.add(line.type()));
                }
                assertThat(seen).as("%s variant %d (seed %d)", fixture.getFileName(), v, seed - 1)
                        .containsSubsequence(expected);
                assertThat(seen.size()).isLessThanOrEqualTo(expected.size() + damaged.garbageLines());
                assertThat(stats.lines()).isGreaterThanOrEqualTo(seen.size());
                checked++;
            }
        }
        assertThat(checked).isEqualTo(Fixtures.all().size() * VARIANTS_PER_FILE);
    }

    @Test
    void read_neverThrowsOnRandomBytes() throws IOException {
        Random random = new Random(42);
        for (int i = 0; i < 200; i++) {
            byte[] bytes = new byte[random.nextInt(4_096)];
            random.nextBytes(bytes);
            Path file = dir.resolve("rollout-noise-" + i + ".jsonl");
            Files.write(file, bytes);
            List<RolloutLine> seen = new ArrayList<>();
            RolloutReader.read(file, seen::add);
            assertThat(seen).isEmpty();
        }
    }

    /** The damaged bytes, the original lines still whole in them, and how many garbage lines went in. */
    record Damaged(byte[] bytes, List<String> intactLines, int garbageLines) {}

    private static Damaged damage(byte[] original, List<String> lines, Random random) {
        // Cut at a random byte offset: the lines wholly before it stay intact.
        int cut = random.nextInt(original.length + 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> intact = new ArrayList<>();
        int garbage = 0;
        int offset = 0;
        for (String line : lines) {
            byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
            if (random.nextInt(8) == 0) {
                out.writeBytes(garbageLine(random));
                garbage++;
            }
            if (offset + bytes.length <= cut) {
                out.writeBytes(bytes);
                intact.add(line);
            } else {
                // The cut line: its start only, possibly in the middle of a UTF-8 sequence.
                out.write(bytes, 0, Math.max(0, cut - offset));
                break;
            }
            offset += bytes.length;
        }
        return new Damaged(out.toByteArray(), intact, garbage);
    }

    private static byte[] garbageLine(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> "{\"timestamp\":\"2025-09-24T19:22:20Z\",\"type\":\"response_item\",\"payload\":{\n"
                    .getBytes(StandardCharsets.UTF_8);
            case 1 -> "not json at all \u0000\u0007\n".getBytes(StandardCharsets.UTF_8);
            case 2 -> "[1,2,3]\n".getBytes(StandardCharsets.UTF_8);
            case 3 -> "{\"type\":42,\"payload\":\"x\"}\n".getBytes(StandardCharsets.UTF_8);
            case 4 -> {
                byte[] noise = new byte[1 + random.nextInt(300)];
                random.nextBytes(noise);
                for (int i = 0; i < noise.length; i++) {
                    if (noise[i] == '\n' || noise[i] == '\r') {
                        noise[i] = '?';
                    }
                }
                noise[noise.length - 1] = '\n';
                yield noise;
            }
            default -> "{\"timestamp\":\"x\",\"type\":\"event_msg\"}{}\n".getBytes(StandardCharsets.UTF_8);
        };
    }
}
