package dev.mnemo.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One Chat Completions request {@link OpenAiWireServer} received, with accessors for what tests
 * usually check. {@link #json()} is the body as received.
 */
public final class WireRequest {

    private final String json;
    private final JsonNode body;

    WireRequest(String json, JsonNode body) {
        this.json = Objects.requireNonNull(json, "json");
        this.body = Objects.requireNonNull(body, "body");
    }

    /** The request body, as JSON text. */
    public String json() {
        return json;
    }

    JsonNode body() {
        return body;
    }

    /** The {@code model} field, or {@code ""}. */
    public String model() {
        return body.path("model").asText("");
    }

    /** Whether the client asked for server-sent events. */
    public boolean stream() {
        return body.path("stream").asBoolean(false);
    }

    /** The text of every {@code system} and {@code developer} message, joined by blank lines. */
    public String systemText() {
        return String.join("\n\n", texts("system", "developer"));
    }

    /** The text of the last {@code user} message, or {@code ""}. */
    public String lastUserText() {
        List<String> users = texts("user");
        return users.isEmpty() ? "" : users.get(users.size() - 1);
    }

    /** The roles of the messages, in order ({@code system}, {@code user}, {@code assistant}, {@code tool}). */
    public List<String> roles() {
        List<String> roles = new ArrayList<>();
        body.path("messages").forEach(m -> roles.add(m.path("role").asText()));
        return roles;
    }

    /** The outputs of {@code tool} messages, in order. */
    public List<String> toolOutputs() {
        return texts("tool");
    }

    /** The names of the functions offered in {@code tools}. */
    public List<String> toolNames() {
        List<String> names = new ArrayList<>();
        body.path("tools").forEach(t -> names.add(t.path("function").path("name").asText()));
        return names;
    }

    /** The {@code response_format.type}, or {@code ""}: {@code json_schema} for a structured-output request. */
    public String responseFormatType() {
        return body.path("response_format").path("type").asText("");
    }

    /** The JSON schema's {@code name} of a {@code json_schema} response format, or {@code ""}. */
    public String responseSchemaName() {
        return body.path("response_format").path("json_schema").path("name").asText("");
    }

    private List<String> texts(String... roles) {
        List<String> wanted = List.of(roles);
        List<String> out = new ArrayList<>();
        for (JsonNode message : body.path("messages")) {
            if (!wanted.contains(message.path("role").asText())) {
                continue;
            }
            JsonNode content = message.path("content");
            if (content.isTextual()) {
                out.add(content.asText());
            } else if (content.isArray()) {
                StringBuilder text = new StringBuilder();
                content.forEach(part -> text.append(part.path("text").asText("")));
                out.add(text.toString());
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return json;
    }
}
