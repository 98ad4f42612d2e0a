package dev.mnemo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.llm.ToolSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryToolsForFolderTest {

    @TempDir
    Path home;

    @Test
    void forFolder_readsTheFolderWithTheMemoryTools() throws Exception {
        Path root = Files.createDirectories(home.resolve("memories"));
        Files.writeString(root.resolve("MEMORY.md"), "# Handbook\nuse gradle\n");

        MemoryTools tools = MemoryTools.forFolder(root);

        assertThat(tools.specs()).extracting(ToolSpec::name).containsExactly("memories_add_ad_hoc_note",
                "memories_list", "memories_read", "memories_search");
        assertThat(tools.call("memories_read", "{\"path\":\"MEMORY.md\",\"line_offset\":2}"))
                .isEqualTo("{\"path\":\"MEMORY.md\",\"start_line_number\":2,\"content\":\"use gradle\\n\","
                        + "\"truncated\":false}");
    }

    @Test
    void forFolder_missingFolder_reportsNotFoundAndCreatesNothing() {
        MemoryTools tools = MemoryTools.forFolder(home.resolve("absent/memories"));

        assertThat(tools.call("memories_list", "{}")).isEqualTo("{\"error\":\"path '' was not found\"}");
        assertThat(tools.call("memories_search", "{\"queries\":[\"x\"]}"))
                .isEqualTo("{\"error\":\"path '' was not found\"}");
        assertThat(home.resolve("absent")).doesNotExist();
    }
}
