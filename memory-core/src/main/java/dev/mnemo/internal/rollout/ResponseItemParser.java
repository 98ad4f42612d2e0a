package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Parses {@code response_item} payloads into {@link ResponseItem}s; missing fields become empty. */
final class ResponseItemParser {

    private ResponseItemParser() {}

    static ResponseItem parse(JsonNode p) {
        String type = text(p, "type");
        switch (type) {
            case "message":
                return new ResponseItem.Message(text(p, "role"), contents(p.get("content")), optionalText(p, "phase"));
            case "agent_message":
                return new ResponseItem.AgentMessage(text(p, "author"), text(p, "recipient"), contents(p.get("content")));
            case "reasoning":
                return new ResponseItem.Reasoning(texts(p.get("summary")), texts(p.get("content")));
            case "local_shell_call": {
                JsonNode action = p.path("action");
                List<String> command = new ArrayList<>();
                action.path("command").forEach(c -> command.add(c.asText()));
                return new ResponseItem.LocalShellCall(text(p, "call_id"), text(p, "status"), List.copyOf(command),
                        text(action, "working_directory"));
            }
            case "function_call":
                return new ResponseItem.FunctionCall(text(p, "name"), optionalText(p, "namespace"), text(p, "arguments"),
                        text(p, "call_id"));
            case "function_call_output":
                return new ResponseItem.FunctionCallOutput(text(p, "call_id"), outputText(p.get("output")));
            case "custom_tool_call":
                return new ResponseItem.CustomToolCall(text(p, "call_id"), text(p, "name"), text(p, "input"));
            case "custom_tool_call_output":
                return new ResponseItem.CustomToolCallOutput(text(p, "call_id"), text(p, "name"), outputText(p.get("output")));
            case "tool_search_call":
                return new ResponseItem.ToolSearchCall(text(p, "call_id"), text(p, "execution"), text(p, "arguments"));
            case "tool_search_output":
                return new ResponseItem.ToolSearchOutput(text(p, "call_id"), text(p, "status"), text(p, "execution"),
                        text(p, "tools"));
            case "web_search_call":
                return new ResponseItem.WebSearchCall(text(p, "status"), webAction(p.path("action")));
            case "image_generation_call":
                return new ResponseItem.ImageGenerationCall(text(p, "status"), text(p, "revised_prompt"));
            case "compaction":
            case "compaction_summary":
            case "context_compaction":
                return new ResponseItem.Compaction(type);
            default:
                return new ResponseItem.Other(type);
        }
    }

    private static String webAction(JsonNode action) {
        String kind = text(action, "type");
        switch (kind) {
            case "search": {
                List<String> queries = texts(action.get("queries"));
                String query = text(action, "query");
                return "search: " + (queries.isEmpty() ? query : String.join(" | ", queries));
            }
            case "open_page":
                return "open page: " + text(action, "url");
            case "find_in_page":
                return "find in page: " + text(action, "pattern") + " in " + text(action, "url");
            default:
                return action.isMissingNode() ? "" : action.toString();
        }
    }

    /** A string field as text; other JSON values as compact JSON; missing or null as "". */
    static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        if (value == null || value.isNull() || value.isMissingNode()) {
            return "";
        }
        return value.isTextual() ? value.asText() : value.toString();
    }

    private static Optional<String> optionalText(JsonNode node, String field) {
        String value = text(node, field);
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    private static List<ResponseItem.Content> contents(JsonNode array) {
        List<ResponseItem.Content> result = new ArrayList<>();
        if (array != null && array.isArray()) {
            for (JsonNode item : array) {
                result.add(new ResponseItem.Content(text(item, "type"), text(item, "text")));
            }
        } else if (array != null && array.isTextual()) {
            result.add(new ResponseItem.Content("input_text", array.asText()));
        }
        return List.copyOf(result);
    }

    /** {@code [{"text": …}]} or {@code ["…"]} as a list of strings. */
    private static List<String> texts(JsonNode array) {
        List<String> result = new ArrayList<>();
        if (array != null && array.isArray()) {
            for (JsonNode item : array) {
                result.add(item.isTextual() ? item.asText() : text(item, "text"));
            }
        }
        return List.copyOf(result);
    }

    /** A tool output: a plain string, or content items joined by newlines (images as a marker). */
    private static String outputText(JsonNode output) {
        if (output == null || output.isNull()) {
            return "";
        }
        if (output.isTextual()) {
            return output.asText();
        }
        if (output.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode item : output) {
                if (sb.length() > 0) {
                    sb.append('\n');
                }
                String type = text(item, "type");
                sb.append(type.contains("image") ? "[image omitted]" : text(item, "text"));
            }
            return sb.toString();
        }
        return output.toString();
    }
}
