package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static dev.mnemo.testkit.ProjectMemories.GLOBAL_FACT;
import static dev.mnemo.testkit.ProjectMemories.NPM_FACT;
import static dev.mnemo.testkit.ProjectMemories.PNPM_FACT;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.ProjectKeys;
import dev.mnemo.TenantHomes;
import dev.mnemo.testkit.ProjectMemories;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ChatModel;

/**
 * {@link MnemoAdvisor#PROJECT} and {@link MnemoProjectResolver}: Spring AI's {@code ChatClient} over
 * HTTP to the in-process wire server, a real home whose memory folder holds a global summary and
 * two projects' summaries with conflicting facts. A request in a project is sent its project's
 * fact and the global one, never the other project's.
 */
@ExtendWith(SharedChatApp.Resolver.class)
class ProjectAdvisorTest {

    static final String WEB = "acme/web";
    static final String API = "acme/api";

    @TempDir
    Path root;

    SharedChatApp shared;
    MemoryEngine engine;
    ChatClient chat;

    @BeforeEach
    void setUp(SharedChatApp fixture) {
        shared = fixture;
        ProjectMemories.plant(root.resolve("home"), WEB, API);
        engine = MemoryEngine.builder().home(root.resolve("home")).config(MemoriesConfig.defaults())
                .model(SpringAiLanguageModel.of(fixture.context.getBean(ChatModel.class))).build();
        chat = chatOver(MnemoAdvisor.builder(engine).build());
    }

    @AfterEach
    void tearDown() {
        engine.close();
    }

    ChatClient chatOver(MnemoAdvisor advisor) {
        return shared.context.getBean(ChatClient.Builder.class).defaultAdvisors(advisor).build();
    }

    /** The first request the wire server got for {@code question}. */
    WireRequest sentFor(String question) {
        return shared.server.requests().stream().filter(r -> r.lastUserText().equals(question)).findFirst()
                .orElseThrow(() -> new AssertionError("no request asked " + question));
    }

    String ask(ChatClient client, String conversation, String project, String question) {
        shared.script.enqueue(WireReply.text("ok"));
        return client.prompt().user(question).advisors(a -> {
            a.param(ChatMemory.CONVERSATION_ID, conversation);
            if (project != null) {
                a.param(MnemoAdvisor.PROJECT, project);
            }
        }).call().content();
    }

    @Test
    void aRequestInAProject_sendsThatProjectsFactAndTheGlobalOne_neverTheOtherProjects() {
        ask(chat, "web-1", WEB, "How do I install the web app?");
        ask(chat, "api-1", API, "How do I install the api?");

        assertThat(sentFor("How do I install the web app?").systemText()).contains(PNPM_FACT, GLOBAL_FACT)
                .doesNotContain(NPM_FACT);
        assertThat(sentFor("How do I install the api?").systemText()).contains(NPM_FACT, GLOBAL_FACT)
                .doesNotContain(PNPM_FACT);
        assertThat(engine.conversation("web-1").project()).contains(WEB);
        assertThat(engine.conversation("api-1").project()).contains(API);
    }

    @Test
    void aRequestWithoutAProject_sendsTheGlobalFact_andNeitherProjectsFact() {
        ask(chat, "plain-1", null, "How do I install anything?");

        assertThat(sentFor("How do I install anything?").systemText()).contains(GLOBAL_FACT)
                .doesNotContain(PNPM_FACT).doesNotContain(NPM_FACT);
        assertThat(engine.conversation("plain-1").project()).isEmpty();
    }

    @Test
    void aStreamedRequestInAProject_sendsThatProjectsFact_neverTheOtherProjects() {
        shared.script.enqueue(WireReply.text("Use pnpm.", "Use ", "pnpm."));

        String answer = String.join("", chat.prompt().user("Streamed: how do I install?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "web-stream").param(MnemoAdvisor.PROJECT, WEB))
                .stream().content().collectList().block());

        assertThat(answer).isEqualTo("Use pnpm.");
        assertThat(sentFor("Streamed: how do I install?").systemText()).contains(PNPM_FACT).doesNotContain(NPM_FACT);
    }

    @Test
    void theMemoryToolsOfAProjectRequest_searchThatProjectAndGlobalMemory_only() throws IOException {
        shared.script.enqueue(WireReply.toolCall("call_p1", "memories_search",
                "{\"queries\":[\"installs dependencies\"],\"scope\":\"project\"}"));
        shared.script.enqueue(WireReply.text("Use pnpm."));

        String answer = chat.prompt().user("Search: how do I install?").advisors(a -> a
                .param(ChatMemory.CONVERSATION_ID, "web-tools").param(MnemoAdvisor.PROJECT, WEB)).call().content();

        assertThat(answer).isEqualTo("Use pnpm.");
        String output = shared.server.requests().stream().filter(r -> r.lastUserText().equals("Search: how do I install?"))
                .reduce((first, second) -> second).orElseThrow().toolOutputs().get(0);
        assertThat(output).contains(ProjectKeys.slug(WEB)).doesNotContain(ProjectKeys.slug(API));
        Path rollout = engine.threads().get("web-tools").orElseThrow().rolloutPath();
        assertThat(Files.readString(rollout)).contains("call_mnemo_").contains(ProjectKeys.slug(WEB));
    }

    @Test
    void aRequestWithoutAConversation_stillGetsItsProjectsInstructions() {
        shared.script.enqueue(WireReply.text("ok"));

        chat.prompt().user("Anonymous: how do I install?").advisors(a -> a.param(MnemoAdvisor.PROJECT, API)).call()
                .content();

        assertThat(sentFor("Anonymous: how do I install?").systemText()).contains(NPM_FACT, GLOBAL_FACT)
                .doesNotContain(PNPM_FACT);
    }

    @Test
    void aProjectResolver_answersForRequestsWithoutTheParam_andTheParamWinsOverIt() {
        ChatClient resolved = chatOver(MnemoAdvisor.builder(engine).projectResolver(request -> Optional.of(API))
                .build());

        ask(resolved, "resolved-1", null, "Resolved: how do I install?");
        ask(resolved, "resolved-2", WEB, "Param: how do I install?");

        assertThat(sentFor("Resolved: how do I install?").systemText()).contains(NPM_FACT).doesNotContain(PNPM_FACT);
        assertThat(sentFor("Param: how do I install?").systemText()).contains(PNPM_FACT).doesNotContain(NPM_FACT);
    }

    @Test
    void anOpenConversationNamedInAnotherProject_isRefused_beforeTheModelIsAsked() {
        ask(chat, "moving-1", WEB, "First: how do I install?");
        int before = shared.server.requests().size();

        assertThatThrownBy(() -> chat.prompt().user("Second: how do I install?").advisors(a -> a
                .param(ChatMemory.CONVERSATION_ID, "moving-1").param(MnemoAdvisor.PROJECT, API)).call().content())
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(shared.server.requests().subList(before, shared.server.requests().size()))
                .noneMatch(r -> r.lastUserText().equals("Second: how do I install?"));
        ask(chat, "moving-1", WEB, "Third: how do I install?");
        assertThat(sentFor("Third: how do I install?").systemText()).contains(PNPM_FACT);
    }

    @Test
    void withOneMemoryPerUser_aRequestGetsItsProjectInItsUsersMemory() {
        ProjectMemories.plant(TenantHomes.home(root.resolve("users"), "alice"), WEB, API);
        MemoryEngines engines = MemoryEngines.builder().engineFactory(TenantHomes.under(root.resolve("users"),
                () -> MemoryEngine.builder().config(MemoriesConfig.defaults())
                        .model(SpringAiLanguageModel.of(shared.context.getBean(ChatModel.class))))).build();
        try (engines) {
            ChatClient perUser = chatOver(MnemoAdvisor.builder(engines).build());
            shared.script.enqueue(WireReply.text("ok"));

            perUser.prompt().user("Alice: how do I install?").advisors(a -> a.param(MnemoAdvisor.USER_ID, "alice")
                    .param(ChatMemory.CONVERSATION_ID, "alice-web").param(MnemoAdvisor.PROJECT, WEB)).call().content();

            assertThat(sentFor("Alice: how do I install?").systemText()).contains(PNPM_FACT, GLOBAL_FACT)
                    .doesNotContain(NPM_FACT);
            assertThat(engines.forTenant("alice").conversation("alice-web").project()).contains(WEB);
        }
    }
}
