package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.SessionStore;
import dev.mnemo.testkit.WireReply;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ChatModel;
import reactor.core.scheduler.Schedulers;

/**
 * A streamed request subscribed on one of Reactor's non-blocking threads ({@link Schedulers#parallel()},
 * where a WebFlux server's event loop would be): the advisor's blocking work (opening the
 * conversation's rollout, recording the user message and the answer) must run elsewhere. The
 * engine's session store is the witness: it notes, for every rollout it starts and every line it
 * appends, whether that happened on a thread Reactor marks non-blocking.
 */
@ExtendWith(SharedChatApp.Resolver.class)
class NonBlockingThreadsTest {

    @TempDir
    Path home;

    SharedChatApp shared;
    WitnessSessionStore sessions;
    MemoryEngine engine;
    ChatClient chat;

    @BeforeEach
    void setUp(SharedChatApp fixture) throws IOException {
        shared = fixture;
        sessions = new WitnessSessionStore(home.resolve("rollouts"));
        engine = MemoryEngine.builder().home(home).config(MemoriesConfig.builder().generateMemories(false).build())
                .model(SpringAiLanguageModel.of(fixture.context.getBean(ChatModel.class))).sessionStore(sessions)
                .build();
        chat = fixture.context.getBean(ChatClient.Builder.class)
                .defaultAdvisors(MnemoAdvisor.builder(engine).build()).build();
    }

    @AfterEach
    void tearDown() {
        engine.close();
    }

    @Test
    void aStreamSubscribedOnANonBlockingThread_recordsOnBlockingCapableThreadsOnly() {
        shared.script.enqueue(WireReply.text("Streamed off the event loop.", "Streamed ", "off the event loop."));

        String answer = String.join("", chat.prompt().user("Where do you record me?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "off-loop")).stream().content()
                .subscribeOn(Schedulers.parallel()).collectList().block());

        assertThat(answer).isEqualTo("Streamed off the event loop.");
        assertThat(sessions.witnessed).as("what the session store saw")
                .anyMatch(w -> w.startsWith("append") && w.contains("Where do you record me?"))
                .anyMatch(w -> w.startsWith("append") && w.contains("Streamed off the event loop."))
                .allMatch(w -> w.contains("[blocking allowed]"));
    }

    /** A file per rollout, like the default store, noting the thread of every call. */
    static final class WitnessSessionStore implements SessionStore {
        final List<String> witnessed = new CopyOnWriteArrayList<>();
        private final Path dir;

        WitnessSessionStore(Path dir) throws IOException {
            this.dir = Files.createDirectories(dir);
        }

        private void witness(String what) {
            witnessed.add(what + " on " + Thread.currentThread().getName()
                    + (Schedulers.isInNonBlockingThread() ? " [NON-BLOCKING]" : " [blocking allowed]"));
        }

        @Override
        public String name() {
            return "witness:" + dir;
        }

        @Override
        public Writer startOrContinue(SessionContext session, Optional<ThreadInfo> earlier, Instant now)
                throws IOException {
            witness("start " + session.threadId());
            Path file = dir.resolve(Integer.toHexString(session.threadId().hashCode()) + ".jsonl");
            boolean continued = Files.exists(file);
            return new Writer() {
                @Override
                public Path rolloutPath() {
                    return file;
                }

                @Override
                public boolean continued() {
                    return continued;
                }

                @Override
                public void append(byte[] line) throws IOException {
                    witness("append " + new String(line, java.nio.charset.StandardCharsets.UTF_8).strip());
                    Files.write(file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                }
            };
        }

        @Override
        public boolean holds(ThreadInfo thread) {
            return thread.rolloutPath().startsWith(dir);
        }

        @Override
        public InputStream open(ThreadInfo thread) throws IOException {
            return Files.newInputStream(thread.rolloutPath());
        }

        @Override
        public boolean delete(ThreadInfo thread) throws IOException {
            return Files.deleteIfExists(thread.rolloutPath());
        }
    }
}
