package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.TenantHomes;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link MnemoLangChain4j#create(MemoryEngines)}: one engine per tenant, chosen from the memory id. */
class TenantsTest {

    interface Assistant {
        String chat(@MemoryId Object conversation, @UserMessage String text);
    }

    /** An application's own memory-id type. */
    record TenantChat(String tenant, String chat) {}

    @TempDir
    Path root;

    private final OpenAiWireServer pipelineServer = OpenAiWireServer.start();
    private final OpenAiWireServer assistantServer = OpenAiWireServer.start(r -> WireReply.text("ok: " + r.lastUserText()));
    private MemoryEngines engines;

    @BeforeEach
    void setUp() {
        OpenAiChatModel pipelineModel = OpenAiChatModel.builder().baseUrl(pipelineServer.baseUrl().toString())
                .apiKey("k").modelName("m").maxRetries(0).build();
        engines = MemoryEngines.builder().engineFactory(TenantHomes.under(root, () -> MemoryEngine.builder()
                .model(MnemoLangChain4j.languageModel(pipelineModel)).closeTimeout(Duration.ofSeconds(2)))).build();
    }

    @AfterEach
    void tearDown() {
        engines.close();
        pipelineServer.close();
        assistantServer.close();
    }

    private Assistant assistant(MnemoLangChain4j mnemo) {
        return mnemo.configure(AiServices.builder(Assistant.class).chatModel(OpenAiChatModel.builder()
                .baseUrl(assistantServer.baseUrl().toString()).apiKey("k").modelName("m").maxRetries(0).build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))).build();
    }

    /** Opens the conversation, lets its startup task finish, then gives the tenant a summary. */
    private void summary(String tenant, String conversation, String text) throws Exception {
        engines.forTenant(tenant).conversation(conversation).startupTask().completion().get(30, TimeUnit.SECONDS);
        Path file = TenantHomes.home(root, tenant).resolve("memories").resolve("memory_summary.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "v1\n\n" + text + "\n");
    }

    private List<String> rollout(String tenant, String conversation) throws IOException {
        return Files.readAllLines(engines.forTenant(tenant).threads().get(conversation).orElseThrow().rolloutPath());
    }

    private WireRequest requestFor(String question) {
        return assistantServer.requests().stream().filter(r -> r.lastUserText().equals(question)).findFirst()
                .orElseThrow();
    }

    @Test
    void eachTenantsCalls_getItsOwnSummary_andAreRecordedInItsOwnHome_evenAtOnce() throws Exception {
        summary("acme", "acme:c1", "acme deploys with make ship");
        summary("globex", "globex:c1", "globex deploys with gradle");
        Assistant assistant = assistant(MnemoLangChain4j.create(engines));

        CompletableFuture<String> acme = CompletableFuture.supplyAsync(() -> assistant.chat("acme:c1", "acme asks"));
        CompletableFuture<String> globex = CompletableFuture.supplyAsync(() -> assistant.chat("globex:c1", "globex asks"));

        assertThat(acme.get(30, TimeUnit.SECONDS)).isEqualTo("ok: acme asks");
        assertThat(globex.get(30, TimeUnit.SECONDS)).isEqualTo("ok: globex asks");
        assertThat(requestFor("acme asks").systemText()).contains("acme deploys").doesNotContain("globex");
        assertThat(requestFor("globex asks").systemText()).contains("globex deploys").doesNotContain("acme");
        assertThat(rollout("acme", "acme:c1")).anyMatch(l -> l.contains("acme asks")).noneMatch(l -> l.contains("globex"));
        assertThat(rollout("globex", "globex:c1")).anyMatch(l -> l.contains("ok: globex asks"))
                .noneMatch(l -> l.contains("acme"));
    }

    @Test
    void memoryIdWithoutTenant_failsTheCall_namingTheId() {
        Assistant assistant = assistant(MnemoLangChain4j.create(engines));

        assertThatThrownBy(() -> assistant.chat("nobody", "hi"))
                .hasStackTraceContaining("memory id 'nobody' names no tenant");
        assertThat(engines.openCount()).isZero();
    }

    @Test
    void tenantResolver_readsTheApplicationsOwnMemoryIdType() throws Exception {
        TenantChat id = new TenantChat("initech", "42");
        Function<Object, String> tenantOf = memoryId -> ((TenantChat) memoryId).tenant();
        summary("initech", id.toString(), "initech files TPS reports");
        Assistant assistant = assistant(MnemoLangChain4j.create(engines, tenantOf));

        assistant.chat(id, "what about the reports?");

        assertThat(requestFor("what about the reports?").systemText()).contains("initech files TPS reports");
        assertThat(rollout("initech", id.toString())).anyMatch(l -> l.contains("ok: what about the reports?"));
    }
}
