package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Builds synthetic Codex rollout files line by line, in Codex's format. */
public final class TestRollouts {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private final List<String> lines = new ArrayList<>();
    private int second;

    public static TestRollouts withMeta(String id) {
        TestRollouts r = new TestRollouts();
        ObjectNode meta = JSON.objectNode().put("id", id).put("timestamp", "2026-01-01T00:00:00.000Z")
                .put("cwd", "/repo").put("originator", "codex_cli_rs").put("source", "cli");
        return r.line("session_meta", meta);
    }

    public TestRollouts line(String type, ObjectNode payload) {
        ObjectNode line = JSON.objectNode()
                .put("timestamp", String.format("2026-01-01T00:%02d:%02d.000Z", second / 60 % 60, second % 60))
                .put("type", type);
        second++;
        line.set("payload", payload);
        lines.add(line.toString());
        return this;
    }

    public TestRollouts raw(String text) {
        lines.add(text);
        return this;
    }

    public TestRollouts message(String role, String... texts) {
        ObjectNode payload = JSON.objectNode().put("type", "message").put("role", role);
        ArrayNode content = payload.putArray("content");
        for (String text : texts) {
            content.addObject().put("type", role.equals("assistant") ? "output_text" : "input_text").put("text", text);
        }
        return line("response_item", payload);
    }

    public TestRollouts assistant(String phase, String text) {
        ObjectNode payload = JSON.objectNode().put("type", "message").put("role", "assistant").put("phase", phase);
        payload.putArray("content").addObject().put("type", "output_text").put("text", text);
        return line("response_item", payload);
    }

    public TestRollouts call(String callId, String name, String arguments) {
        return line("response_item", JSON.objectNode().put("type", "function_call").put("name", name)
                .put("arguments", arguments).put("call_id", callId));
    }

    public TestRollouts output(String callId, String output) {
        return line("response_item", JSON.objectNode().put("type", "function_call_output").put("call_id", callId)
                .put("output", output));
    }

    public TestRollouts item(String json) {
        try {
            return line("response_item", (ObjectNode) RolloutReader.MAPPER.readTree(json));
        } catch (IOException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    public Path writeTo(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        return Files.write(file, lines);
    }
}
