package dev.mnemo.internal.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read that gives some payloads by their type alone ({@link PayloadTypePeek}) must see exactly
 * what a full read sees — the same lines, kinds, timestamps and malformed count — except that a
 * payload whose type is asked for alone and that a built tree would give that type is reduced to
 * {@code {"type": …}}.
 */
class PayloadTypeAloneTest {

    private static final String PREFIX = "{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":\"response_item\",\"payload\":";

    @TempDir
    Path dir;

    @Test
    void everyFixture_givesTheLinesOfAFullReadWithAskedPayloadsReducedToTheirType() throws IOException {
        int reduced = 0;
        for (Path fixture : Fixtures.all()) {
            reduced += assertSameAsFullRead(fixture, type -> !type.equals("message")).size();
        }
        assertThat(reduced).as("reasoning, calls and outputs of the fixtures").isGreaterThan(900);
    }

    @Test
    void adversarialPayloads_areBuiltWholeUnlessTheirTypeIsCertain() throws IOException {
        Path file = write(
                PREFIX + "{\"type\":\"reasoning\",\"summary\":[],\"type\":\"message\",\"role\":\"user\"}}",
                PREFIX + "{\"summary\":[],\"type\":\"reasoning\"}}",
                PREFIX + "{ \"type\":\"reasoning\",\"content\":null}}",
                PREFIX + "{\"type\" : \"reasoning\"}}",
                PREFIX + "{\"typ\\u0065\":\"reasoning\"}}",
                PREFIX + "{\"type\":\"reas\\u006fning\",\"x\":1}}",
                PREFIX + "{\"type\":\"reasoning\",\"nested\":{\"type\":\"message\",\"a\":[{\"type\":\"x\"}]},\"s\":\"\\\"type\\\":\"}}",
                PREFIX + "{\"type\":\"reasoning\",\"encrypted_content\":\"abc\"",
                PREFIX + "{\"type\":\"reasoning\",\"bad\":tru}}",
                PREFIX + "{\"type\":\"reasoning\"}} trailing",
                PREFIX + "{\"type\":\"reasoning\"},\"type\":\"event_msg\"}",
                PREFIX + "{\"type\":\"reasoning\"},\"payload\":{\"type\":\"message\",\"role\":\"user\"}}",
                PREFIX + "{\"type\":\"reasoning\",\"type\":\"reasoning\"}}",
                PREFIX + "{\"type\":\"\"}}",
                PREFIX + "{\"type\":\"reasoning\"}}");
        Files.write(file, withInvalidUtf8(PREFIX + "{\"type\":\"reasoning\",\"s\":\"caf?\"}}"),
                java.nio.file.StandardOpenOption.APPEND);

        List<Long> reduced = assertSameAsFullRead(file, type -> true);

        // Of the payloads that hold more than their type, only those that start with their only
        // type in Codex's shape are reduced (line 12: the second payload, which wins): a repeated
        // type, a type not first, whitespace, escapes and invalid UTF-8 (the line is parsed again as
        // text) all have their payload built whole.
        assertThat(reduced).containsExactly(7L, 12L);
    }

    /** Reads {@code file} both ways, checks they agree, and returns the lines whose payloads were reduced. */
    private static List<Long> assertSameAsFullRead(Path file, Predicate<String> typeAlone) throws IOException {
        List<RolloutLine> full = new ArrayList<>();
        List<RolloutLine> alone = new ArrayList<>();
        Predicate<RolloutLine.Kind> responseItems = kind -> kind == RolloutLine.Kind.RESPONSE_ITEM;

        RolloutReader.ReadStats fullStats = RolloutReader.read(file, responseItems, full::add);
        RolloutReader.ReadStats aloneStats = RolloutReader.read(file, responseItems, typeAlone, alone::add);

        assertThat(aloneStats).as(file.toString()).isEqualTo(fullStats);
        assertThat(alone).hasSameSizeAs(full);
        List<Long> reduced = new ArrayList<>();
        for (int i = 0; i < full.size(); i++) {
            RolloutLine expected = full.get(i);
            RolloutLine actual = alone.get(i);
            assertThat(actual.lineNumber()).isEqualTo(expected.lineNumber());
            assertThat(actual.kind()).isEqualTo(expected.kind());
            assertThat(actual.type()).isEqualTo(expected.type());
            assertThat(actual.timestampText()).isEqualTo(expected.timestampText());
            if (actual.payload().equals(expected.payload())) {
                continue;
            }
            JsonNode type = expected.payload().get("type");
            assertThat(type).as("line %d of %s", expected.lineNumber(), file).isNotNull();
            assertThat(type.isTextual() && typeAlone.test(type.asText())).isTrue();
            assertThat(actual.payload()).isEqualTo(RolloutReader.MAPPER.createObjectNode().put("type", type.asText()));
            reduced.add(expected.lineNumber());
        }
        return reduced;
    }

    private Path write(String... lines) throws IOException {
        Path file = dir.resolve("adversarial.jsonl");
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    /** The line's UTF-8 bytes with its {@code ?} replaced by 0xE9 (Latin-1 'é', invalid as UTF-8). */
    private static byte[] withInvalidUtf8(String line) {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '?') {
                bytes[i] = (byte) 0xE9;
            }
        }
        return bytes;
    }
}
