package dev.mnemo.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The memory tools of a session in a project (issue 29): {@code scope} on search and list, the
 * session's project first, notes filed under the project unless global.
 */
class ScopedToolsTest extends TwoProjectsFixture {

    @BeforeEach
    void plantTheAppsRecap() {
        write("rollout_summaries/2026-11-02T10-00-00-bbbb-app.md",
                "thread_id: t-app\ncwd: /work/src/app\nproject: projects/" + appSlug + "/\n\nthe app build broke\n");
    }

    @Test
    void searchWithScopeProject_seesThisProjectAndGlobalMemory_only() {
        List<String> paths = searchPaths(tools.inProject(APP), "{\"queries\":[\"build\"],\"scope\":\"project\"}");

        assertThat(paths).containsExactly("projects/" + appSlug + "/MEMORY.md",
                "rollout_summaries/2026-11-02T10-00-00-bbbb-app.md", "MEMORY.md");
    }

    @Test
    void searchOfTheWholeFolder_putsThisProjectsFilesFirst() {
        List<String> paths = searchPaths(tools.inProject(APP), "{\"queries\":[\"build\"]}");

        assertThat(paths).hasSize(5);
        assertThat(paths.subList(0, 2)).containsExactly("projects/" + appSlug + "/MEMORY.md",
                "rollout_summaries/2026-11-02T10-00-00-bbbb-app.md");
        assertThat(searchPaths(tools.inProject(APP), "{\"queries\":[\"build\"],\"scope\":\"all\"}")).isEqualTo(paths);
    }

    @Test
    void searchOfASessionInNoProject_isCodexsPathOrder() {
        List<String> paths = searchPaths(tools, "{\"queries\":[\"build\"]}");

        assertThat(paths).isSorted().hasSize(5);
        assertThat(searchPaths(tools, "{\"queries\":[\"build\"],\"scope\":\"project\"}"))
                .as("no project: global memory only").containsExactly("MEMORY.md");
    }

    @Test
    void listWithScopeProject_hidesOtherProjects_andRefusesTheirFolders() {
        tools = tools.inProject(APP);

        JsonNode listed = ok(LocalMemoryTools.LIST, "{\"path\":\"projects\",\"scope\":\"project\"}");
        assertThat(listed.get("entries")).hasSize(1);
        assertThat(listed.get("entries").get(0).get("path").asText()).isEqualTo("projects/" + appSlug);
        assertThat(ok(LocalMemoryTools.LIST, "{\"path\":\"projects\"}").get("entries")).hasSize(2);
        assertThat(error(LocalMemoryTools.LIST, "{\"path\":\"projects/" + webSlug + "\",\"scope\":\"project\"}"))
                .contains("another project");
    }

    @Test
    void searchWithScopeProject_leavesOutRawMemories_whichMixEveryProject() {
        write("raw_memories.md", "# Raw Memories\n\n- the web build uses npm\n- the app build uses pnpm\n");

        assertThat(searchPaths(tools.inProject(APP), "{\"queries\":[\"npm\"],\"scope\":\"project\"}"))
                .doesNotContain("raw_memories.md").containsExactly("projects/" + appSlug + "/MEMORY.md");
        assertThat(searchPaths(tools.inProject(APP), "{\"queries\":[\"npm\"]}")).contains("raw_memories.md");
    }

    @Test
    void anUnknownScope_isAnErrorTheModelCanRead() {
        assertThat(error(LocalMemoryTools.SEARCH, "{\"queries\":[\"x\"],\"scope\":\"mine\"}"))
                .contains("unknown scope `mine`");
    }

    @Test
    void aNote_isFiledUnderTheProjectByDefault_orGlobalWhenAsked() throws IOException {
        tools = tools.inProject(APP);
        ok(LocalMemoryTools.ADD_AD_HOC_NOTE,
                "{\"filename\":\"2026-05-26T13-42-08-use-yarn.md\",\"note\":\"The app uses yarn now.\"}");
        ok(LocalMemoryTools.ADD_AD_HOC_NOTE,
                "{\"filename\":\"2026-05-26T13-42-09-tabs.md\",\"note\":\"Tabs everywhere.\",\"scope\":\"global\"}");

        Path notes = root.resolve("extensions/ad_hoc/notes");
        assertThat(Files.readString(notes.resolve("2026-05-26T13-42-08-use-yarn.md"), StandardCharsets.UTF_8))
                .isEqualTo("scope: project projects/" + appSlug + "/\n\nThe app uses yarn now.");
        assertThat(Files.readString(notes.resolve("2026-05-26T13-42-09-tabs.md"), StandardCharsets.UTF_8))
                .isEqualTo("Tabs everywhere.");
    }

    @Test
    void aProjectNote_inASessionWithNoProject_isRefusedWithAReason() {
        assertThat(error(LocalMemoryTools.ADD_AD_HOC_NOTE,
                "{\"filename\":\"2026-05-26T13-42-08-x.md\",\"note\":\"x\",\"scope\":\"project\"}"))
                .contains("no project");
    }

    @Test
    void aNoteOfAnotherProject_isHiddenFromAProjectScopedSearch() {
        write("extensions/ad_hoc/notes/2026-05-26T13-42-08-web.md",
                "scope: project projects/" + webSlug + "/\n\nthe web build uses bun\n");

        assertThat(searchPaths(tools.inProject(APP), "{\"queries\":[\"bun\"],\"scope\":\"project\"}")).isEmpty();
        assertThat(searchPaths(tools.inProject(WEB), "{\"queries\":[\"bun\"],\"scope\":\"project\"}")).hasSize(1);
    }
}
