package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.mnemo.MemoryTools;
import dev.mnemo.llm.ToolSpec;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mnemo's JSON schemas as LangChain4j schema elements. */
class JsonSchemasTest {

    @TempDir
    Path home;

    @Test
    void memoryToolSchemas_keepStructureDescriptionsRequiredAndClosedObjects() {
        Map<String, ToolSpecification> tools = MemoryTools.forFolder(home).specs().stream()
                .map(MemoryToolProvider::specification)
                .collect(Collectors.toMap(ToolSpecification::name, Function.identity()));

        assertThat(tools).containsOnlyKeys("memories_list", "memories_read", "memories_search",
                "memories_add_ad_hoc_note");
        JsonObjectSchema search = tools.get("memories_search").parameters();
        assertThat(search.required()).containsExactly("queries");
        assertThat(search.additionalProperties()).isFalse();
        assertThat(search.properties().get("queries")).isInstanceOfSatisfying(JsonArraySchema.class,
                queries -> assertThat(queries.items()).isInstanceOf(JsonStringSchema.class));
        assertThat(search.properties().get("context_lines")).isInstanceOf(JsonIntegerSchema.class);
        JsonAnyOfSchema mode = (JsonAnyOfSchema) search.properties().get("match_mode");
        assertThat(mode.anyOf()).hasSize(3).allSatisfy(variant -> assertThat(variant)
                .isInstanceOfSatisfying(JsonObjectSchema.class, v -> {
                    assertThat(v.required()).contains("type");
                    assertThat(v.properties().get("type")).isInstanceOf(JsonEnumSchema.class);
                }));
        assertThat(tools.get("memories_read").parameters().properties().get("path").description())
                .contains("relative to the memory root");
        assertThat(tools.get("memories_add_ad_hoc_note").description()).isNotBlank();
    }

    @Test
    void nullableType_becomesAnyOfTheTypeAndNull() {
        JsonObjectSchema schema = JsonSchemas.object("reply", "{\"type\":\"object\",\"properties\":"
                + "{\"slug\":{\"type\":[\"string\",\"null\"]}},\"required\":[\"slug\"],\"additionalProperties\":false}");

        assertThat(((JsonAnyOfSchema) schema.properties().get("slug")).anyOf())
                .hasExactlyElementsOfTypes(JsonStringSchema.class, JsonNullSchema.class);
    }

    @Test
    void unsupportedOrNonObjectSchemas_failNamingTheTool() {
        ToolSpec bad = new ToolSpec("odd_tool", "odd", "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"date\"}}}");

        assertThatThrownBy(() -> MemoryToolProvider.specification(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tool odd_tool").hasMessageContaining("'date'");
        assertThatThrownBy(() -> JsonSchemas.object("reply", "{\"type\":\"string\"}"))
                .hasMessageContaining("not an object schema");
        assertThatThrownBy(() -> JsonSchemas.object("reply", "{nope")).hasMessageContaining("not JSON");
    }
}
