package dev.mnemo.internal.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResponseItemTest {

    private static ResponseItem parse(String json) throws JsonProcessingException {
        return ResponseItem.parse(RolloutReader.MAPPER.readTree(json));
    }

    @Test
    void parse_messageWithPhaseAndImage() throws Exception {
        ResponseItem item = parse("{\"type\":\"message\",\"role\":\"assistant\",\"phase\":\"commentary\",\"content\":"
                + "[{\"type\":\"output_text\",\"text\":\"hi\"},{\"type\":\"input_image\",\"image_url\":\"data:x\"}]}");

        assertThat(item).isEqualTo(new ResponseItem.Message("assistant", List.of(
                new ResponseItem.Content("output_text", "hi"), new ResponseItem.Content("input_image", "")),
                Optional.of("commentary")));
        assertThat(((ResponseItem.Message) item).content().get(1).isOpaque()).isTrue();
    }

    @Test
    void parse_everyToolVariant() throws Exception {
        assertThat(parse("{\"type\":\"function_call\",\"name\":\"search\",\"namespace\":\"memories\","
                + "\"arguments\":\"{\\\"q\\\":1}\",\"call_id\":\"c1\"}"))
                .isEqualTo(new ResponseItem.FunctionCall("search", Optional.of("memories"), "{\"q\":1}", "c1"));
        assertThat(parse("{\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":\"done\"}"))
                .isEqualTo(new ResponseItem.FunctionCallOutput("c1", "done"));
        assertThat(parse("{\"type\":\"function_call_output\",\"call_id\":\"c2\",\"output\":[{\"type\":\"input_text\","
                + "\"text\":\"a\"},{\"type\":\"input_image\",\"image_url\":\"u\"}]}"))
                .isEqualTo(new ResponseItem.FunctionCallOutput("c2", "a\n[image omitted]"));
        assertThat(parse("{\"type\":\"local_shell_call\",\"call_id\":\"s\",\"status\":\"completed\",\"action\":"
                + "{\"type\":\"exec\",\"command\":[\"ls\",\"-la\"],\"working_directory\":\"/r\"}}"))
                .isEqualTo(new ResponseItem.LocalShellCall("s", "completed", List.of("ls", "-la"), "/r"));
        assertThat(parse("{\"type\":\"custom_tool_call\",\"call_id\":\"p\",\"name\":\"apply_patch\",\"input\":\"***\"}"))
                .isEqualTo(new ResponseItem.CustomToolCall("p", "apply_patch", "***"));
        assertThat(parse("{\"type\":\"custom_tool_call_output\",\"call_id\":\"p\",\"output\":\"ok\"}"))
                .isEqualTo(new ResponseItem.CustomToolCallOutput("p", "", "ok"));
        assertThat(parse("{\"type\":\"tool_search_call\",\"execution\":\"client\",\"arguments\":{\"query\":\"x\"}}"))
                .isEqualTo(new ResponseItem.ToolSearchCall("", "client", "{\"query\":\"x\"}"));
        assertThat(parse("{\"type\":\"tool_search_output\",\"status\":\"completed\",\"execution\":\"client\","
                + "\"tools\":[]}")).isEqualTo(new ResponseItem.ToolSearchOutput("", "completed", "client", "[]"));
        assertThat(parse("{\"type\":\"web_search_call\",\"status\":\"completed\",\"action\":{\"type\":\"search\","
                + "\"query\":\"jdk 17\"}}")).isEqualTo(new ResponseItem.WebSearchCall("completed", "search: jdk 17"));
        assertThat(parse("{\"type\":\"web_search_call\",\"action\":{\"type\":\"open_page\",\"url\":\"https://x\"}}"))
                .isEqualTo(new ResponseItem.WebSearchCall("", "open page: https://x"));
    }

    @Test
    void parse_reasoningAgentMessageImageAndCompactionItems() throws Exception {
        assertThat(parse("{\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"s\"}],"
                + "\"content\":[{\"type\":\"reasoning_text\",\"text\":\"r\"}],\"encrypted_content\":\"zz\"}"))
                .isEqualTo(new ResponseItem.Reasoning(List.of("s"), List.of("r")));
        assertThat(parse("{\"type\":\"agent_message\",\"author\":\"a\",\"recipient\":\"b\",\"content\":"
                + "[{\"type\":\"input_text\",\"text\":\"mail\"}]}"))
                .isEqualTo(new ResponseItem.AgentMessage("a", "b", List.of(new ResponseItem.Content("input_text", "mail"))));
        assertThat(parse("{\"type\":\"image_generation_call\",\"id\":\"i\",\"status\":\"done\",\"result\":\"b64\"}"))
                .isEqualTo(new ResponseItem.ImageGenerationCall("done", ""));
        assertThat(parse("{\"type\":\"compaction\",\"encrypted_content\":\"x\"}")).isInstanceOf(ResponseItem.Compaction.class);
        assertThat(parse("{\"type\":\"compaction_summary\",\"encrypted_content\":\"x\"}")).isInstanceOf(ResponseItem.Compaction.class);
        assertThat(parse("{\"type\":\"context_compaction\"}")).isInstanceOf(ResponseItem.Compaction.class);
        assertThat(parse("{\"type\":\"ghost_snapshot\",\"ghost_commit\":{}}")).isEqualTo(new ResponseItem.Other("ghost_snapshot"));
        assertThat(parse("{}")).isEqualTo(new ResponseItem.Other(""));
    }

    @Test
    void classifies_memoryExcludedFragments() {
        // Codex phase1.rs classifies_memory_excluded_fragments
        assertThat(ContextualFragments.isMemoryExcluded("# AGENTS.md instructions for /repo\n<INSTRUCTIONS>x</INSTRUCTIONS>")).isTrue();
        assertThat(ContextualFragments.isMemoryExcluded("  # agents.md instructions\n<instructions>x</instructions>  ")).isTrue();
        assertThat(ContextualFragments.isMemoryExcluded("<skill>\n<name>demo</name>\n</skill>")).isTrue();
        assertThat(ContextualFragments.isMemoryExcluded("<user_instructions>x</user_instructions>")).isTrue();
        assertThat(ContextualFragments.isMemoryExcluded("<environment_context>x</environment_context>")).isFalse();
        assertThat(ContextualFragments.isMemoryExcluded("<subagent_notification>x</subagent_notification>")).isFalse();
        assertThat(ContextualFragments.isMemoryExcluded("please read AGENTS.md")).isFalse();
        assertThat(ContextualFragments.isMemoryExcluded("<skill> without an end")).isFalse();
    }
}
