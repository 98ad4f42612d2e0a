package dev.mnemo.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.MemoryTools;
import dev.mnemo.llm.ToolSpec;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tools confined to a project ({@link MemoryTools#confinedToProject}, issue 40): search and list
 * default to the project and the global memory, a read of another project's file is refused unless
 * the call says {@code "scope": "all"}; the tools bound with {@code inProject} keep their defaults.
 */
class ConfinedToolsTest extends TwoProjectsFixture {

    @BeforeEach
    void plantANoteOfTheWebProjectAndRawMemories() {
        write("extensions/ad_hoc/notes/2026-05-26T13-42-08-web.md",
                "scope: project projects/" + webSlug + "/\n\nthe web build uses bun\n");
        write("raw_memories.md", "# Raw Memories\n\n- the web build uses npm\n- the app build uses pnpm\n");
    }

    @Test
    void search_defaultsToTheProjectAndGlobalMemory_andScopeAllReachesTheWholeFolder() {
        MemoryTools confined = tools.confinedToProject(APP);

        assertThat(searchPaths(confined, "{\"queries\":[\"build\"]}"))
                .containsExactly("projects/" + appSlug + "/MEMORY.md", "MEMORY.md");
        assertThat(searchPaths(confined, "{\"queries\":[\"build\"],\"scope\":\"all\"}"))
                .contains("projects/" + webSlug + "/MEMORY.md", "raw_memories.md",
                        "extensions/ad_hoc/notes/2026-05-26T13-42-08-web.md")
                .startsWith("projects/" + appSlug + "/MEMORY.md");
    }

    @Test
    void toolsInAProject_withoutConfinement_keepSearchingTheWholeFolderByDefault() {
        assertThat(searchPaths(tools.inProject(APP), "{\"queries\":[\"build\"]}"))
                .contains("projects/" + webSlug + "/MEMORY.md");
        assertThat(parse(tools.inProject(APP).call(LocalMemoryTools.READ,
                "{\"path\":\"projects/" + webSlug + "/MEMORY.md\"}")).path("content").asText()).contains("npm");
    }

    @Test
    void list_defaultsToTheProject_andRefusesAnotherProjectsFolderWithoutScopeAll() {
        tools = tools.confinedToProject(APP);

        JsonNode listed = ok(LocalMemoryTools.LIST, "{\"path\":\"projects\"}");
        assertThat(listed.get("entries")).extracting(entry -> entry.get("path").asText())
                .containsExactly("projects/" + appSlug);
        assertThat(error(LocalMemoryTools.LIST, "{\"path\":\"projects/" + webSlug + "\"}")).contains("another project");
        assertThat(ok(LocalMemoryTools.LIST, "{\"path\":\"projects\",\"scope\":\"all\"}").get("entries")).hasSize(2);
    }

    @Test
    void read_ofAnotherProjectsFile_isRefusedWithHowToAskForIt_andScopeAllReadsIt() {
        tools = tools.confinedToProject(APP);
        String other = "projects/" + webSlug + "/MEMORY.md";

        assertThat(error(LocalMemoryTools.READ, "{\"path\":\"" + other + "\"}"))
                .contains(other, "another project", "\"scope\": \"all\"").doesNotContain("npm");
        assertThat(error(LocalMemoryTools.READ, "{\"path\":\"" + other + "\",\"scope\":\"project\"}"))
                .contains("another project");
        assertThat(ok(LocalMemoryTools.READ, "{\"path\":\"" + other + "\",\"scope\":\"all\"}").path("content").asText())
                .contains("the web build uses npm");
    }

    @Test
    void read_ofAnotherProjectsRecapOrNote_byItsHeader_andOfTheMixedRawMemories_isRefused() {
        tools = tools.confinedToProject(APP);

        assertThat(error(LocalMemoryTools.READ, "{\"path\":\"rollout_summaries/2026-11-01T10-00-00-aaaa-web.md\"}"))
                .contains("another project");
        assertThat(error(LocalMemoryTools.READ, "{\"path\":\"extensions/ad_hoc/notes/2026-05-26T13-42-08-web.md\"}"))
                .contains("another project");
        assertThat(error(LocalMemoryTools.READ, "{\"path\":\"raw_memories.md\"}")).contains("\"scope\": \"all\"");
    }

    @Test
    void read_ofTheProjectsOwnAndTheGlobalFiles_isServed() {
        tools = tools.confinedToProject(APP);

        assertThat(ok(LocalMemoryTools.READ, "{\"path\":\"projects/" + appSlug + "/MEMORY.md\"}").path("content")
                .asText()).contains("pnpm");
        assertThat(ok(LocalMemoryTools.READ, "{\"path\":\"MEMORY.md\"}").path("content").asText())
                .contains("short answers");
        assertThat(error(LocalMemoryTools.READ, "{\"path\":\"MEMORY.md\",\"scope\":\"mine\"}"))
                .contains("unknown scope `mine`");
    }

    @Test
    void read_ofUnconfinedTools_stillTakesNoScope() {
        assertThat(error(LocalMemoryTools.READ, "{\"path\":\"MEMORY.md\",\"scope\":\"all\"}")).contains("scope");
    }

    @Test
    void specs_ofConfinedTools_giveReadAScope_andSayProjectIsTheDefault() throws Exception {
        Map<String, ToolSpec> confined = bySpecName(tools.confinedToProject(APP).specs());
        Map<String, ToolSpec> plain = bySpecName(tools.inProject(APP).specs());

        JsonNode readScope = JSON.readTree(confined.get(LocalMemoryTools.READ).parametersJsonSchema())
                .path("properties").path("scope");
        assertThat(readScope.path("enum")).extracting(JsonNode::asText).containsExactly("project", "all");
        assertThat(readScope.path("description").asText()).contains("`project` (default)");
        for (String name : List.of(LocalMemoryTools.SEARCH, LocalMemoryTools.LIST)) {
            assertThat(JSON.readTree(confined.get(name).parametersJsonSchema()).path("properties").path("scope")
                    .path("description").asText()).as(name).contains("`project` (default in a project)");
            assertThat(JSON.readTree(plain.get(name).parametersJsonSchema()).path("properties").path("scope")
                    .path("description").asText()).as(name).contains("`all` (default)");
        }
        assertThat(JSON.readTree(plain.get(LocalMemoryTools.READ).parametersJsonSchema()).path("properties")
                .has("scope")).isFalse();
    }

    @Test
    void confinement_survivesBindingToAConversation() {
        MemoryTools bound = tools.confinedToProject(APP).inConversation("t-1", () -> false);

        assertThat(searchPaths(bound, "{\"queries\":[\"build\"]}"))
                .containsExactly("projects/" + appSlug + "/MEMORY.md", "MEMORY.md");
    }

    private static Map<String, ToolSpec> bySpecName(List<ToolSpec> specs) {
        return specs.stream().collect(Collectors.toMap(ToolSpec::name, Function.identity()));
    }
}
