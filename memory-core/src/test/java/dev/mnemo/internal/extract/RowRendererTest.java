package dev.mnemo.internal.extract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.internal.rollout.Fixtures;
import dev.mnemo.internal.rollout.ResponseItem;
import dev.mnemo.internal.rollout.RolloutLine;
import dev.mnemo.internal.rollout.RolloutReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RowRenderer#neverRendered} lets the reader give such items by their type alone; that is
 * only sound if an item of such a type is left out whatever else its payload holds.
 */
class RowRendererTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void neverRenderedTypes_areLeftOutWhateverTheirPayloadHolds() throws IOException {
        List<JsonNode> payloads = new ArrayList<>();
        for (Path fixture : Fixtures.all()) {
            RolloutReader.read(fixture, line -> {
                if (line.kind() == RolloutLine.Kind.RESPONSE_ITEM) {
                    payloads.add(line.payload());
                }
            });
        }
        payloads.add(JSON.readTree("{\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"plan\"}],"
                + "\"content\":[{\"type\":\"reasoning_text\",\"text\":\"thinking\"}],\"encrypted_content\":\"gAAA\"}"));
        payloads.add(JSON.readTree("{\"type\":\"image_generation_call\",\"status\":\"completed\",\"revised_prompt\":\"a cat\"}"));
        payloads.add(JSON.readTree("{\"type\":\"compaction_summary\",\"encrypted_content\":\"gAAA\"}"));
        payloads.add(JSON.readTree("{\"type\":\"ghost_snapshot\",\"ghost_commit\":{\"id\":\"abc\"}}"));
        payloads.add(JSON.readTree("{\"type\":\"brand_new_item\",\"role\":\"user\",\"content\":\"hello\"}"));
        payloads.add(JSON.readTree("{\"role\":\"user\",\"content\":\"no type at all\"}"));

        int neverRendered = 0;
        for (JsonNode payload : payloads) {
            String type = payload.path("type").asText("");
            if (RowRenderer.neverRendered(type)) {
                neverRendered++;
                assertThat(RowRenderer.render(ResponseItem.parse(payload))).as(payload.toString()).isEmpty();
                assertThat(RowRenderer.render(ResponseItem.parse(JSON.createObjectNode().put("type", type)))).isEmpty();
            }
        }
        assertThat(neverRendered).as("the fixtures' reasoning items and the made-up ones").isGreaterThan(300);
    }

    @Test
    void renderedTypes_areTheOnesThatCanBeKept() throws IOException {
        for (String payload : List.of(
                "{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"hi\"}]}",
                "{\"type\":\"agent_message\",\"author\":\"a\",\"recipient\":\"b\",\"content\":\"hi\"}",
                "{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{}\",\"call_id\":\"c\"}",
                "{\"type\":\"function_call_output\",\"call_id\":\"c\",\"output\":\"ok\"}",
                "{\"type\":\"local_shell_call\",\"call_id\":\"c\",\"action\":{\"command\":[\"ls\"]}}",
                "{\"type\":\"custom_tool_call\",\"call_id\":\"c\",\"name\":\"t\",\"input\":\"x\"}",
                "{\"type\":\"custom_tool_call_output\",\"call_id\":\"c\",\"output\":\"x\"}",
                "{\"type\":\"tool_search_call\",\"call_id\":\"c\",\"arguments\":\"x\"}",
                "{\"type\":\"tool_search_output\",\"call_id\":\"c\",\"tools\":\"x\"}",
                "{\"type\":\"web_search_call\",\"action\":{\"type\":\"search\",\"query\":\"q\"}}")) {
            JsonNode node = JSON.readTree(payload);
            assertThat(RowRenderer.neverRendered(node.get("type").asText())).as(payload).isFalse();
            assertThat(RowRenderer.render(ResponseItem.parse(node))).as(payload).isPresent();
        }
    }
}
