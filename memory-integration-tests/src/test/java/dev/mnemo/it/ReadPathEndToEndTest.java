package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.AssistantMessage;
import dev.mnemo.MemoriesConfig;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #5's done-when: after a consolidation, a model given the instructions and tools can find a
 * fact in MEMORY.md, cite it, and the cited rollout's usage count goes up.
 */
class ReadPathEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    @Test
    void findCiteAndCountUsage() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            p.model.extraction = request -> ScriptedModel.reply("- the release branch is cut on Thursdays",
                    "# release process", "release");
            String id = p.recordSession("when do we cut the release branch?");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            p.engine.admin().runPhase2();

            String instructions = p.engine.buildDeveloperInstructions();
            assertThat(instructions).contains(p.memoryRoot().toString(), "MEMORY_SUMMARY BEGINS", "A scripted profile");

            JsonNode hits = JSON.readTree(p.engine.tools().call("memories_search",
                    "{\"queries\":[\"Thursdays\"]}"));
            JsonNode match = hits.get("matches").get(0);
            String path = match.get("path").asText();
            int line = match.get("match_line_number").asInt();
            assertThat(path).isEqualTo("MEMORY.md");

            String answer = "Cut it on Thursday.\n<oai-mem-citation>\n<citation_entries>\n" + path + ":" + line + "-"
                    + line + "|note=[release day]\n</citation_entries>\n<rollout_ids>\n"
                    + id.toUpperCase(Locale.ROOT) + "\n" + id + "\n</rollout_ids>\n</oai-mem-citation>";
            AssistantMessage shown = p.engine.processAssistantMessage("current-thread", answer);

            assertThat(shown.visibleText()).isEqualTo("Cut it on Thursday.\n");
            assertThat(shown.citation().orElseThrow().entries()).singleElement()
                    .satisfies(e -> assertThat(e.note()).isEqualTo("release day"));
            assertThat(shown.usageRecorded()).isEqualTo(1);
            assertThat(p.store.stage1Output(id).orElseThrow().usageCount()).isEqualTo(1);
            assertThat(p.store.stage1Output(id).orElseThrow().lastUsage()).contains(p.clock.instant());
        }
    }

    @Test
    void useMemoriesOffMeansNoInstructions() {
        try (Pipeline p = new Pipeline(home, MemoriesConfig.builder().useMemories(false).build(), null)) {
            p.recordSession("anything");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            p.engine.admin().runPhase2();
            assertThat(p.engine.buildDeveloperInstructions()).isEmpty();
        }
    }

    @Test
    void noSummaryYetMeansNoInstructions() {
        try (Pipeline p = new Pipeline(home)) {
            assertThat(p.engine.buildDeveloperInstructions()).isEmpty();
        }
    }
}
