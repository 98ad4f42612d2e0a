package dev.mnemo.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One request {@link OpenAiWireServer} received — Chat Completions, or Responses when
 * {@link #path()} says {@code /v1/responses} — with accessors for what tests usually check; each
 * reads either format. {@link #json()} is the body as received.
 */
public final class WireRequest {

    private final String json;
    private final JsonNode body;
    private final String path;

    WireRequest(String json, JsonNode body) {
        this(json, body, "/v1/chat/completions");
    }

    WireRequest(String json, JsonNode body, String path) {
        this.json = Objects.requireNonNull(json, "json");
        this.body = Objects.requireNonNull(body, "body");
        this.path = Objects.requireNonNull(path, "path");
    }

    /**
     * The path it was sent to: {@code /v1/chat/completions} or {@code /v1/responses}.
     *
     * @return the request path
     */
    public String path() {
        return path;
    }

    /**
     * Whether it is a Responses API request (the conversation in {@code input} items).
     *
     * @return true if the path ends with {@code /responses}
     */
    public boolean isResponses() {
        return path.endsWith("/responses");
    }

    /**
     * The request body, as JSON text.
     *
     * @return the body exactly as the server received it
     */
    public String json() {
        return json;
    }

    JsonNode body() {
        return body;
    }

    /**
     * The {@code model} field, or {@code ""}.
     *
     * @return the model the client named; empty if it named none
     */
    public String model() {
        return body.path("model").asText("");
    }

    /**
     * Whether the client asked for server-sent events.
     *
     * @return the {@code stream} field; false if absent
     */
    public boolean stream() {
        return body.path("stream").asBoolean(false);
    }

    /**
     * The text of every {@code system} and {@code developer} message, joined by blank lines.
     *
     * @return the system text, Responses {@code instructions} first; empty if there is none
     */
    public String systemText() {
        List<String> texts = new ArrayList<>();
        if (isResponses() && body.hasNonNull("instructions")) {
            texts.add(body.path("instructions").asText());
        }
        texts.addAll(texts("system", "developer"));
        return String.join("\n\n", texts);
    }

    /**
     * The text of the last {@code user} message, or {@code ""}.
     *
     * @return the last user text; empty if there is no user message
     */
    public String lastUserText() {
        List<String> users = texts("user");
        return users.isEmpty() ? "" : users.get(users.size() - 1);
    }

    /**
     * The roles of the messages, in order ({@code system}, {@code user}, {@code assistant}, {@code tool}).
     *
     * @return one role per message or item; a Responses {@code function_call} counts as {@code assistant}, a {@code function_call_output} as {@code tool}
     */
    public List<String> roles() {
        List<String> roles = new ArrayList<>();
        for (JsonNode item : conversation()) {
            roles.add(switch (item.path("type").asText("message")) {
                case "function_call" -> "assistant";
                case "function_call_output" -> "tool";
                default -> item.path("role").asText();
            });
        }
        return roles;
    }

    /**
     * The ids of the tool calls in assistant turns ({@code function_call} items), in order.
     *
     * @return the call ids; empty if no assistant turn called a tool
     */
    public List<String> assistantToolCallIds() {
        List<String> ids = new ArrayList<>();
        for (JsonNode item : conversation()) {
            if (isResponses() && item.path("type").asText().equals("function_call")) {
                ids.add(item.path("call_id").asText());
            }
            item.path("tool_calls").forEach(call -> ids.add(call.path("id").asText()));
        }
        return ids;
    }

    /**
     * The call ids the tool results answer ({@code tool_call_id}, or {@code call_id} of {@code function_call_output}).
     *
     * @return the answered call ids, in order; empty if there is no tool result
     */
    public List<String> toolResultCallIds() {
        List<String> ids = new ArrayList<>();
        for (JsonNode item : conversation()) {
            if (item.path("type").asText().equals("function_call_output")) {
                ids.add(item.path("call_id").asText());
            } else if (item.path("role").asText().equals("tool")) {
                ids.add(item.path("tool_call_id").asText());
            }
        }
        return ids;
    }

    /**
     * The outputs of {@code tool} messages, in order.
     *
     * @return the tool outputs, Chat Completions {@code tool} messages first, then Responses {@code function_call_output} items
     */
    public List<String> toolOutputs() {
        List<String> outputs = new ArrayList<>(texts("tool"));
        for (JsonNode item : conversation()) {
            if (item.path("type").asText().equals("function_call_output")) {
                outputs.add(item.path("output").asText());
            }
        }
        return outputs;
    }

    /**
     * The names of the functions offered in {@code tools}.
     *
     * @return the function names, in order; empty if no tool was offered
     */
    public List<String> toolNames() {
        List<String> names = new ArrayList<>();
        body.path("tools").forEach(t -> names.add(t.has("function") ? t.path("function").path("name").asText()
                : t.path("name").asText()));
        return names;
    }

    /**
     * The {@code response_format.type}, or {@code ""}: {@code json_schema} for a structured-output request.
     *
     * @return the format type ({@code text.format.type} for Responses); empty if absent
     */
    public String responseFormatType() {
        return isResponses() ? body.path("text").path("format").path("type").asText("")
                : body.path("response_format").path("type").asText("");
    }

    /**
     * The JSON schema's {@code name} of a {@code json_schema} response format, or {@code ""}.
     *
     * @return the schema's name; empty if there is no schema format
     */
    public String responseSchemaName() {
        return schemaFormat().path("name").asText("");
    }

    /**
     * Whether the {@code json_schema} response format asks for strict adherence ({@code strict: true}).
     *
     * @return the {@code strict} flag; false if absent
     */
    public boolean responseSchemaStrict() {
        return schemaFormat().path("strict").asBoolean(false);
    }

    /**
     * The JSON schema of a {@code json_schema} response format, as JSON text, or {@code ""}.
     *
     * @return the schema as JSON text; empty if there is none
     */
    public String responseSchema() {
        JsonNode schema = schemaFormat().path("schema");
        return schema.isMissingNode() ? "" : schema.toString();
    }

    private JsonNode schemaFormat() {
        return isResponses() ? body.path("text").path("format") : body.path("response_format").path("json_schema");
    }

    /** The conversation: Chat Completions {@code messages}, or Responses {@code input} items. */
    private JsonNode conversation() {
        return isResponses() ? body.path("input") : body.path("messages");
    }

    private List<String> texts(String... roles) {
        List<String> wanted = List.of(roles);
        List<String> out = new ArrayList<>();
        for (JsonNode message : conversation()) {
            if (!message.path("type").asText("message").equals("message")
                    || !wanted.contains(message.path("role").asText())) {
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
