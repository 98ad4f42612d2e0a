package dev.mnemo.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A real memory folder in a temp dir, and helpers to call the tools with JSON and read the JSON back. */
abstract class ToolsFixture {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-05-26T13:42:08Z"), ZoneOffset.UTC);

    @TempDir
    Path temp;

    Path root;
    LocalMemoryTools tools;

    @BeforeEach
    void createTools() throws IOException {
        root = temp.resolve("memories");
        Files.createDirectories(root);
        tools = new LocalMemoryTools(root, CLOCK);
    }

    void write(String relative, String content) {
        try {
            Path file = root.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void mkdirs(String relative) {
        try {
            Files.createDirectories(root.resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Calls a tool and parses its result, asserting it is not an error. */
    JsonNode ok(String tool, String arguments) {
        JsonNode result = parse(tools.call(tool, arguments));
        assertThat(result.has("error")).as("unexpected error: %s", result).isFalse();
        return result;
    }

    /** Calls a tool and returns its error message, asserting it is an error object. */
    String error(String tool, String arguments) {
        JsonNode result = parse(tools.call(tool, arguments));
        assertThat(result.has("error")).as("expected an error, got %s", result).isTrue();
        assertThat(result.size()).isEqualTo(1);
        return result.get("error").asText();
    }

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("tool output is not JSON: " + json, e);
        }
    }

    static JsonNode json(String text) {
        return parse(text.replace('\'', '"'));
    }
}
