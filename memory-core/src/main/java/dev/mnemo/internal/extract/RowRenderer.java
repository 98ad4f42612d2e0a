package dev.mnemo.internal.extract;

import dev.mnemo.internal.rollout.ContextualFragments;
import dev.mnemo.internal.rollout.ResponseItem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Filters and renders one {@code response_item} as write sheet §4.3 says: developer messages,
 * AGENTS.md / {@code <skill>} / {@code <user_instructions>} fragments, reasoning, image generation
 * and compaction items are left out; user and assistant messages, tool calls and outputs, web
 * searches, inter-agent mail and environment context are kept.
 */
final class RowRenderer {

    /** The {@code response_item} types {@link #render} may keep; every other type is always left out. */
    private static final Set<String> RENDERED_TYPES = Set.of("message", "agent_message", "function_call",
            "function_call_output", "local_shell_call", "custom_tool_call", "custom_tool_call_output",
            "tool_search_call", "tool_search_output", "web_search_call");

    private RowRenderer() {}

    /**
     * Whether an item of this wire type is left out whatever else it holds (reasoning, compaction,
     * image generation, unknown kinds), so its payload need not be read beyond its type.
     */
    static boolean neverRendered(String itemType) {
        return !RENDERED_TYPES.contains(itemType);
    }

    /** The rendered row, or empty when the item is filtered out. */
    static Optional<Row> render(ResponseItem item) {
        if (item instanceof ResponseItem.Message) {
            return message((ResponseItem.Message) item);
        }
        if (item instanceof ResponseItem.AgentMessage) {
            ResponseItem.AgentMessage m = (ResponseItem.AgentMessage) item;
            return row(Row.Tier.OTHER_AGENT, "from " + m.author() + " to " + m.recipient(), joined(m.content()));
        }
        if (item instanceof ResponseItem.FunctionCall) {
            ResponseItem.FunctionCall c = (ResponseItem.FunctionCall) item;
            String name = c.namespace().map(ns -> ns + "/" + c.name()).orElse(c.name());
            return row(Row.Tier.TOOL, "call " + name + callId(c.callId()), c.arguments());
        }
        if (item instanceof ResponseItem.FunctionCallOutput) {
            ResponseItem.FunctionCallOutput o = (ResponseItem.FunctionCallOutput) item;
            return row(Row.Tier.TOOL, "output" + callId(o.callId()), o.output());
        }
        if (item instanceof ResponseItem.LocalShellCall) {
            ResponseItem.LocalShellCall s = (ResponseItem.LocalShellCall) item;
            String where = s.workingDirectory().isEmpty() ? "" : " in " + s.workingDirectory();
            return row(Row.Tier.TOOL, "shell" + where + callId(s.callId()), String.join(" ", s.command()));
        }
        if (item instanceof ResponseItem.CustomToolCall) {
            ResponseItem.CustomToolCall c = (ResponseItem.CustomToolCall) item;
            return row(Row.Tier.TOOL, "call " + c.name() + callId(c.callId()), c.input());
        }
        if (item instanceof ResponseItem.CustomToolCallOutput) {
            ResponseItem.CustomToolCallOutput o = (ResponseItem.CustomToolCallOutput) item;
            String name = o.name().isEmpty() ? "" : " of " + o.name();
            return row(Row.Tier.TOOL, "output" + name + callId(o.callId()), o.output());
        }
        if (item instanceof ResponseItem.ToolSearchCall) {
            ResponseItem.ToolSearchCall c = (ResponseItem.ToolSearchCall) item;
            return row(Row.Tier.TOOL, "tool search" + callId(c.callId()), c.arguments());
        }
        if (item instanceof ResponseItem.ToolSearchOutput) {
            ResponseItem.ToolSearchOutput o = (ResponseItem.ToolSearchOutput) item;
            return row(Row.Tier.TOOL, "tool search result" + callId(o.callId()), o.tools());
        }
        if (item instanceof ResponseItem.WebSearchCall) {
            ResponseItem.WebSearchCall w = (ResponseItem.WebSearchCall) item;
            return row(Row.Tier.TOOL, "web search", w.action());
        }
        // Reasoning, image generation, compaction and unknown items never reach the model.
        return Optional.empty();
    }

    private static Optional<Row> message(ResponseItem.Message m) {
        switch (m.role()) {
            case "developer":
                return Optional.empty();
            case "user":
                return userMessage(m);
            case "assistant": {
                boolean commentary = m.phase().filter("commentary"::equals).isPresent();
                return row(commentary ? Row.Tier.COMMENTARY : Row.Tier.FINAL, "", joined(m.content()));
            }
            default:
                return row(Row.Tier.CONTEXT, m.role(), joined(m.content()));
        }
    }

    /** A user message without its excluded fragments; dropped when nothing remains. */
    private static Optional<Row> userMessage(ResponseItem.Message m) {
        List<String> parts = new ArrayList<>();
        boolean human = false;
        boolean otherAgent = false;
        for (ResponseItem.Content c : m.content()) {
            if (c.isOpaque()) {
                parts.add(omitted(c.type()));
                continue;
            }
            if (ContextualFragments.isMemoryExcluded(c.text()) || c.text().isBlank()) {
                continue;
            }
            parts.add(c.text());
            if (ContextualFragments.isRealUserText(c.text())) {
                human = true;
            } else if (c.text().strip().startsWith("<subagent_notification>")) {
                otherAgent = true;
            }
        }
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        Row.Tier tier = human ? Row.Tier.HUMAN : otherAgent ? Row.Tier.OTHER_AGENT : Row.Tier.CONTEXT;
        return row(tier, "", String.join("\n", parts));
    }

    private static String joined(List<ResponseItem.Content> content) {
        List<String> parts = new ArrayList<>();
        for (ResponseItem.Content c : content) {
            if (c.isOpaque()) {
                parts.add(omitted(c.type()));
            } else if (!c.text().isBlank()) {
                parts.add(c.text());
            }
        }
        return String.join("\n", parts);
    }

    private static String omitted(String contentType) {
        if (contentType.contains("image")) {
            return "[image omitted]";
        }
        return contentType.contains("audio") ? "[audio omitted]" : "[" + contentType + " omitted]";
    }

    private static String callId(String callId) {
        return callId.isEmpty() ? "" : " (" + callId + ")";
    }

    private static Optional<Row> row(Row.Tier tier, String detail, String body) {
        if (body.isBlank() && tier != Row.Tier.TOOL) {
            return Optional.empty();
        }
        String label = detail.isEmpty() ? tier.label() : tier.label() + " " + detail;
        return Optional.of(new Row(tier, label + "\n" + body));
    }
}
