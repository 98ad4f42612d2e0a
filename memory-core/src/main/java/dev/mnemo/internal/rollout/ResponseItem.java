package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * The payload of a {@code response_item} line, one record per variant of Codex's
 * {@code ResponseItem} (read sheet §5.4). Unknown variants become {@link Other}; missing fields
 * become empty strings or lists, so a parse never fails.
 */
public sealed interface ResponseItem {

    /** The wire {@code type} of this item. */
    String type();

    /** One entry of a message's {@code content} array. */
    record Content(String type, String text) {
        /** An image, audio clip or encrypted blob: content without readable text. */
        public boolean isOpaque() {
            return !type.equals("input_text") && !type.equals("output_text") && !type.equals("text");
        }
    }

    /** A chat message; {@code phase} is {@code commentary} or {@code final_answer} when known. */
    record Message(String role, List<Content> content, Optional<String> phase) implements ResponseItem {
        public String type() {
            return "message";
        }
    }

    /** Inter-agent mail. */
    record AgentMessage(String author, String recipient, List<Content> content) implements ResponseItem {
        public String type() {
            return "agent_message";
        }
    }

    /** Model reasoning; never sent to the extraction model. */
    record Reasoning(List<String> summary, List<String> content) implements ResponseItem {
        public String type() {
            return "reasoning";
        }
    }

    /** A local shell command. */
    record LocalShellCall(String callId, String status, List<String> command, String workingDirectory)
            implements ResponseItem {
        public String type() {
            return "local_shell_call";
        }
    }

    /** A function tool call; {@code arguments} is the JSON text the model sent. */
    record FunctionCall(String name, Optional<String> namespace, String arguments, String callId)
            implements ResponseItem {
        public String type() {
            return "function_call";
        }
    }

    /** A function tool's output, its content items joined into text. */
    record FunctionCallOutput(String callId, String output) implements ResponseItem {
        public String type() {
            return "function_call_output";
        }
    }

    /** A free-form (custom) tool call. */
    record CustomToolCall(String callId, String name, String input) implements ResponseItem {
        public String type() {
            return "custom_tool_call";
        }
    }

    /** A custom tool's output. */
    record CustomToolCallOutput(String callId, String name, String output) implements ResponseItem {
        public String type() {
            return "custom_tool_call_output";
        }
    }

    /** A tool-search request; {@code arguments} as compact JSON. */
    record ToolSearchCall(String callId, String execution, String arguments) implements ResponseItem {
        public String type() {
            return "tool_search_call";
        }
    }

    /** A tool-search result; {@code tools} as compact JSON. */
    record ToolSearchOutput(String callId, String status, String execution, String tools) implements ResponseItem {
        public String type() {
            return "tool_search_output";
        }
    }

    /** A web search; {@code action} described in words (query, page opened, find in page). */
    record WebSearchCall(String status, String action) implements ResponseItem {
        public String type() {
            return "web_search_call";
        }
    }

    /** An image generation. */
    record ImageGenerationCall(String status, String revisedPrompt) implements ResponseItem {
        public String type() {
            return "image_generation_call";
        }
    }

    /** {@code compaction}, {@code compaction_summary} or {@code context_compaction}: encrypted history. */
    record Compaction(String type) implements ResponseItem {}

    /** Any other variant ({@code ghost_snapshot}, newer kinds). */
    record Other(String type) implements ResponseItem {}

    /** Parses a {@code response_item} payload; never fails (unknown variants give {@link Other}). */
    static ResponseItem parse(JsonNode payload) {
        return ResponseItemParser.parse(payload);
    }
}
