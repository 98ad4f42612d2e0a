package dev.mnemo.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.llm.ToolSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tool specs and the "bad call gives a JSON error, never an exception" contract (read sheet §4.1, 7.2). */
class ToolCallContractTest extends ToolsFixture {

    @Test
    void specs_listFourToolsInCodexOrderWithApiSafeNames() {
        List<ToolSpec> specs = tools.specs();

        assertThat(specs).extracting(ToolSpec::name).containsExactly(
                "memories_add_ad_hoc_note", "memories_list", "memories_read", "memories_search");
        assertThat(specs).allSatisfy(spec -> {
            assertThat(spec.name()).matches("[A-Za-z0-9_-]+");
            assertThat(spec.description()).isNotBlank();
            JsonNode schema = parse(spec.parametersJsonSchema());
            assertThat(schema.get("type").asText()).isEqualTo("object");
            assertThat(schema.get("additionalProperties").asBoolean(true)).isFalse();
        });
    }

    @Test
    void adHocToolDefinition_includesFilenameContractAndCurrentTime() {
        JsonNode schema = parse(tools.specs().get(0).parametersJsonSchema());

        JsonNode filename = schema.at("/properties/filename");
        assertThat(filename.get("type").asText()).isEqualTo("string");
        assertThat(filename.get("description").asText()).contains("YYYY-MM-DDTHH-MM-SS-<slug>.md")
                .contains("2026-05-26T13-42-08");
        assertThat("2026-05-26T13-42-08-remember-review-style.md").matches(filename.get("pattern").asText());
        assertThat(schema.get("required")).isEqualTo(json("['filename','note']"));
    }

    @Test
    void searchSchema_requiresQueriesAndOffersTheThreeModes() {
        JsonNode schema = parse(tools.specs().get(3).parametersJsonSchema());

        assertThat(schema.get("required")).isEqualTo(json("['queries']"));
        assertThat(schema.at("/properties/match_mode/oneOf")).hasSize(3);
        assertThat(schema.at("/properties/match_mode/oneOf/2/additionalProperties").asBoolean(true)).isFalse();
    }

    @Test
    void call_unknownToolIsAJsonError() {
        assertThat(error("memories_delete", "{}")).startsWith("unknown tool 'memories_delete'");
        assertThat(error(null, "{}")).startsWith("unknown tool 'null'");
    }

    @Test
    void call_malformedJsonIsAJsonError() {
        assertThat(error(LocalMemoryTools.LIST, "{\"path\":")).startsWith("failed to parse tool arguments as JSON");
        assertThat(error(LocalMemoryTools.LIST, "{} {}")).startsWith("failed to parse tool arguments as JSON");
        assertThat(error(LocalMemoryTools.LIST, "{\"path\":\"a\",\"path\":\"b\"}"))
                .startsWith("failed to parse tool arguments as JSON").contains("path");
        assertThat(error(LocalMemoryTools.LIST, "[]")).isEqualTo("invalid type: sequence, expected an object");
    }

    @Test
    void call_unknownFieldOrWrongTypeIsAJsonError() {
        assertThat(error(LocalMemoryTools.LIST, "{\"recursive\":true}"))
                .isEqualTo("unknown field `recursive`, expected one of `path`, `cursor`, `max_results`, `scope`");
        assertThat(error(LocalMemoryTools.LIST, "{\"max_results\":\"10\"}"))
                .isEqualTo("invalid type: string \"10\", expected a non-negative integer for `max_results`");
        assertThat(error(LocalMemoryTools.LIST, "{\"max_results\":-1}")).contains("expected a non-negative integer");
        assertThat(error(LocalMemoryTools.READ, "{\"path\":\"MEMORY.md\",\"line_offset\":1.5}"))
                .contains("floating point `1.5`");
        assertThat(error(LocalMemoryTools.READ, "{\"path\":7}")).contains("expected a string for `path`");
        assertThat(error(LocalMemoryTools.READ, "{}")).isEqualTo("missing field `path`");
        assertThat(error(LocalMemoryTools.SEARCH, "{\"queries\":\"needle\"}")).contains("expected an array of strings");
        assertThat(error(LocalMemoryTools.SEARCH, "{\"queries\":[\"a\"],\"case_sensitive\":\"no\"}"))
                .contains("expected a boolean for `case_sensitive`");
    }

    @Test
    void call_blankArgumentsAndNullOptionalsMeanDefaults() {
        write("MEMORY.md", "x");

        assertThat(ok(LocalMemoryTools.LIST, "  ").get("entries")).hasSize(1);
        assertThat(ok(LocalMemoryTools.LIST, null).get("entries")).hasSize(1);
        assertThat(ok(LocalMemoryTools.LIST, "{\"path\":null,\"cursor\":null,\"max_results\":null}").get("entries"))
                .hasSize(1);
    }

    @Test
    void call_hugeNumbersAreClampedNotOverflowed() {
        write("MEMORY.md", "x\n");

        assertThat(ok(LocalMemoryTools.LIST, "{\"max_results\":123456789012345678901234567890}").get("entries"))
                .hasSize(1);
        assertThat(error(LocalMemoryTools.READ, "{\"path\":\"MEMORY.md\",\"line_offset\":99999999999}"))
                .isEqualTo("line_offset exceeds file length");
    }
}
