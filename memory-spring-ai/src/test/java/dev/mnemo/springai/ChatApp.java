package dev.mnemo.springai;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.testkit.OpenAiWireServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application as a user writes it without the starter: Spring AI's OpenAI starter
 * pointed at the in-process wire server, an engine in a temporary home over the same
 * {@link ChatModel}, and a {@link ChatClient} with the {@link MnemoAdvisor}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class ChatApp {

    static final Instant T0 = Instant.parse("2026-11-01T09:00:00Z");

    final ManualClock clock = new ManualClock(T0);
    final List<String> cited = new CopyOnWriteArrayList<>();

    static ConfigurableApplicationContext start(OpenAiWireServer server, Path home) {
        return new SpringApplicationBuilder(ChatApp.class)
                .properties("spring.main.web-application-type=none",
                        "spring.main.banner-mode=off",
                        "spring.ai.openai.base-url=" + server.baseUrl(),
                        "spring.ai.openai.api-key=test-key",
                        "spring.ai.openai.chat.model=gpt-test",
                        "spring.ai.openai.max-retries=0",
                        "test.home=" + home)
                .run();
    }

    static OpenAiWireServer server(ChatScript script) {
        return OpenAiWireServer.start(script);
    }

    @Bean(destroyMethod = "close")
    MemoryEngine memoryEngine(ChatModel chatModel, org.springframework.core.env.Environment env) {
        return MemoryEngine.builder()
                .home(Path.of(env.getRequiredProperty("test.home")))
                // Every idle conversation in one Phase 1 run: conversations recorded at the same instant tie.
                .config(MemoriesConfig.builder().maxRolloutsPerStartup(128).build())
                .model(SpringAiLanguageModel.of(chatModel))
                .clock(clock)
                .listener(new MemoryEventListener() {
                    @Override
                    public void memoriesCited(String threadId, List<String> rolloutIds, int counted) {
                        cited.add(threadId + ":" + rolloutIds + ":" + counted);
                    }
                })
                .build();
    }

    @Bean
    MnemoAdvisor mnemoAdvisor(MemoryEngine engine) {
        return MnemoAdvisor.builder(engine).build();
    }

    @Bean
    ChatClient chatClient(ChatClient.Builder builder, MnemoAdvisor advisor) {
        return builder.defaultSystem("You are a terse build assistant.").defaultAdvisors(advisor).build();
    }
}
