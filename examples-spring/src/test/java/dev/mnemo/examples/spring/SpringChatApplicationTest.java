package dev.mnemo.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** The example application, run as it ships, against an in-process OpenAI-compatible server. */
class SpringChatApplicationTest {

    @TempDir
    Path home;

    @Test
    void theChatAnswersWithMemory_withoutCitationMarkup_andRecordsTheConversation() throws IOException {
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(home.resolve("memories/memory_summary.md"), "v1\nThe team deploys on Thursdays.");
        ChatScript script = ChatScript.create();
        script.enqueue(WireReply.text("On Thursday.<oai-mem-citation><rollout_ids>\nold\n</rollout_ids>"
                + "</oai-mem-citation>"));
        String cited = "<oai-mem-citation><rollout_ids>\nold\n</rollout_ids></oai-mem-citation>";
        script.enqueue(WireReply.text("Thursday, as usual." + cited, "Thurs", "day, as usual.<oai-mem-",
                cited.substring("<oai-mem-".length())));
        try (OpenAiWireServer server = OpenAiWireServer.start(script);
                ConfigurableApplicationContext app = new SpringApplicationBuilder(SpringChatApplication.class)
                        .properties("chat.terminal=false", "spring.ai.openai.base-url=" + server.baseUrl(),
                                "spring.ai.openai.api-key=test-key", "spring.ai.openai.max-retries=0",
                                "mnemo.home=" + home)
                        .run()) {
            MemoryChat chat = app.getBean(MemoryChat.class);

            assertThat(chat.ask("demo", "When do we deploy?")).isEqualTo("On Thursday.");
            assertThat(String.join("", chat.stream("demo", "And this week?").collectList().block()))
                    .isEqualTo("Thursday, as usual.");

            WireRequest first = server.requests().stream()
                    .filter(r -> !ChatScript.isPhase1(r) && !ChatScript.isConsolidation(r)).findFirst().orElseThrow();
            assertThat(first.systemText()).startsWith("You are a concise assistant for this project.")
                    .contains("The team deploys on Thursdays.");
            assertThat(first.toolNames()).contains("memories_search");
            Path rollout = app.getBean(MemoryEngine.class).threads().get("demo").orElseThrow().rolloutPath();
            assertThat(Files.readString(rollout)).contains("When do we deploy?").contains("Thursday, as usual.")
                    .doesNotContain("oai-mem-citation");
        }
    }
}
