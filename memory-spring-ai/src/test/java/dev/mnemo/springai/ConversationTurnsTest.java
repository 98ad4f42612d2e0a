package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.ConversationBusyException;
import dev.mnemo.testkit.WireReply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.reactivestreams.Subscription;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import reactor.core.publisher.BaseSubscriber;

/**
 * Two requests of one conversation at once: the second is refused with
 * {@link ConversationBusyException} before anything of it is recorded or sent to the model, so the
 * conversation's rollout holds whole exchanges, one after the other. The first request is held
 * open deterministically: a stream by not asking for its remaining chunks, a call by a tool of the
 * test's that waits inside the model's tool loop.
 */
@ExtendWith(SharedChatApp.Resolver.class)
class ConversationTurnsTest {

    SharedChatApp shared;
    ChatClient chat;

    @BeforeEach
    void setUp(SharedChatApp fixture) {
        shared = fixture;
        chat = fixture.chat();
    }

    String ask(String conversation, String question) {
        return chat.prompt().user(question).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
                .call().content();
    }

    List<String> rollout(String conversation) throws IOException {
        Path path = shared.engine().threads().get(conversation).orElseThrow().rolloutPath();
        return Files.readAllLines(path);
    }

    long requestsAsking(String question) {
        return shared.server.requests().stream().filter(r -> r.lastUserText().equals(question)).count();
    }

    @Test
    void aRequestWhileTheConversationStreams_isRefusedBeforeAnythingIsRecordedOrSent() throws Exception {
        shared.script.enqueue(WireReply.text("First answer.", "First", " answer."));
        CountDownLatch firstChunk = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        BaseSubscriber<String> slowReader = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                request(1);
            }

            @Override
            protected void hookOnNext(String chunk) {
                firstChunk.countDown();
            }

            @Override
            protected void hookFinally(reactor.core.publisher.SignalType type) {
                done.countDown();
            }
        };
        chat.prompt().user("First question").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "turns-stream"))
                .stream().content().subscribe(slowReader);
        assertThat(firstChunk.await(30, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> ask("turns-stream", "Second question"))
                .isInstanceOf(ConversationBusyException.class).hasMessageContaining("turns-stream");
        assertThatThrownBy(() -> chat.prompt().user("Third question")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "turns-stream")).stream().content().blockLast())
                .isInstanceOf(ConversationBusyException.class);

        slowReader.request(Long.MAX_VALUE);
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(requestsAsking("Second question")).isZero();
        assertThat(requestsAsking("Third question")).isZero();
        assertThat(rollout("turns-stream")).noneMatch(l -> l.contains("Second question") || l.contains("Third question"))
                .anyMatch(l -> l.contains("First question")).anyMatch(l -> l.contains("First answer."));

        shared.script.enqueue(WireReply.text("Next answer."));
        assertThat(ask("turns-stream", "Next question")).isEqualTo("Next answer.");
    }

    @Test
    void aRequestWhileACallOfTheConversationRunsItsTools_isRefused_andTheCallFinishesItsTurn() throws Exception {
        CountDownLatch inTool = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ToolCallback holdOn = new ToolCallback() {
            @Override
            public ToolDefinition getToolDefinition() {
                return ToolDefinition.builder().name("hold_on").description("Waits for the test.")
                        .inputSchema("{\"type\":\"object\",\"properties\":{}}").build();
            }

            @Override
            public String call(String toolInput) {
                inTool.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "{\"held\":true}";
            }

            @Override
            public String call(String toolInput, ToolContext context) {
                return call(toolInput);
            }
        };
        shared.script.enqueue(WireReply.toolCall("call_hold", "hold_on", "{}"));
        shared.script.enqueue(WireReply.text("Done holding."));

        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> chat.prompt().user("Hold the line")
                .toolCallbacks(holdOn).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "turns-call"))
                .call().content());
        assertThat(inTool.await(30, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> ask("turns-call", "Are you there?")).isInstanceOf(ConversationBusyException.class);

        release.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("Done holding.");
        assertThat(requestsAsking("Are you there?")).isZero();
        List<String> lines = rollout("turns-call");
        assertThat(lines).noneMatch(l -> l.contains("Are you there?"));
        assertThat(lines.stream().filter(l -> l.contains("Hold the line")).count()).isEqualTo(1);
        assertThat(lines).anyMatch(l -> l.contains("Done holding."));

        shared.script.enqueue(WireReply.text("Still here."));
        assertThat(ask("turns-call", "Are you there now?")).isEqualTo("Still here.");
    }
}
