package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.AssistantMessage;
import dev.mnemo.CitationEntry;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.internal.cite.CitationUsage;
import dev.mnemo.internal.tools.LocalMemoryTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "done when", played by hand: with the instructions and the tools, a fact is found in
 * MEMORY.md, read, cited, and the cited rollout (and only known ones) earns usage.
 */
class ReadPathWalkthroughTest {

    private static final String ROLLOUT = "019c6e27-e55b-73d1-87d8-4e01f1f75043";

    @TempDir
    Path root;

    @Test
    void factFoundWithToolsAndCitedRaisesUsageOfThatRollout() throws IOException {
        Files.writeString(root.resolve("memory_summary.md"), "Project mnemo: build with Maven; see MEMORY.md.");
        Files.writeString(root.resolve("MEMORY.md"), "# Memory\n\n## Build\n- run `mvn -B -ntp verify` (rollout "
                + ROLLOUT + ")\n- never run `mvn install`\n");
        String instructions = new DeveloperInstructions(root,
                MemoriesConfig.builder().dedicatedTools(true).build()).build();
        LocalMemoryTools tools = new LocalMemoryTools(root, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
        ObjectMapper json = new ObjectMapper();

        assertThat(instructions).contains("Project mnemo: build with Maven", "memories_search");
        JsonNode hit = json.readTree(tools.call(LocalMemoryTools.SEARCH,
                "{\"queries\":[\"MVN INSTALL\"],\"case_sensitive\":false}")).get("matches").get(0);
        int line = hit.get("match_line_number").asInt();
        JsonNode read = json.readTree(tools.call(LocalMemoryTools.READ,
                "{\"path\":\"MEMORY.md\",\"line_offset\":" + (line - 1) + ",\"max_lines\":2}"));
        assertThat(read.get("content").asText()).contains(ROLLOUT).contains("never run `mvn install`");

        String answer = "Do not run `mvn install`; use `mvn -B -ntp verify`.\n<oai-mem-citation>\n<citation_entries>\n"
                + "MEMORY.md:" + (line - 1) + "-" + line + "|note=[build rule]\n</citation_entries>\n<rollout_ids>\n"
                + ROLLOUT + "\n019c0000-0000-7000-8000-000000000000\n</rollout_ids>\n</oai-mem-citation>";
        Map<String, Integer> usage = new HashMap<>(Map.of(ROLLOUT, 0));
        AssistantMessage message = CitationUsage.process(answer, ids -> {
            int changed = 0;
            for (String id : ids) {
                if (usage.computeIfPresent(id, (k, count) -> count + 1) != null) {
                    changed++;
                }
            }
            return changed;
        });

        assertThat(message.visibleText()).isEqualTo("Do not run `mvn install`; use `mvn -B -ntp verify`.\n");
        assertThat(message.citation().orElseThrow().entries())
                .containsExactly(new CitationEntry("MEMORY.md", 4, 5, "build rule"));
        assertThat(message.usageRecorded()).isEqualTo(1);
        assertThat(usage).containsExactlyEntriesOf(Map.of(ROLLOUT, 1));
    }
}
