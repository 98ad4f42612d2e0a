package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.Phase1Preview;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadInfo;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spawn graph through the engine, on real SQLite and git: a sub-agent session records its edge
 * ({@code open} while it records, {@code closed} once closed), never becomes memory itself, is
 * deleted with the thread that spawned it, and carries its pollution up to its root conversation.
 */
class SpawnGraphEngineTest {

    private static final Optional<SpawnEdgeStatus> ANY = Optional.empty();

    @TempDir
    Path home;

    private MemoryEngine engine(MemoriesConfig config) {
        return MemoryEngine.builder().home(home).config(config).model(new ScriptedModel())
                .clock(TestHomes.at(TestHomes.RECORDED)).build();
    }

    private static void record(MemoryEngine engine, SessionContext context) {
        try (RecordedSession session = engine.sessions().start(context)) {
            session.userMessage("Look up why the nightly build of " + context.threadId() + " fails.");
            session.assistantMessage("It fails because the cache folder is shared.");
        }
    }

    @Test
    void subAgentSession_recordsAnOpenEdgeWhileRecording_andClosesItWhenClosed() {
        try (MemoryEngine engine = engine(TestHomes.config())) {
            record(engine, SessionContext.root("root"));
            RecordedSession child = engine.sessions().start(SessionContext.root("child").spawnedBy("root"));
            child.userMessage("Search the build logs.");

            assertThat(engine.agentGraph().children("root", Optional.of(SpawnEdgeStatus.OPEN)))
                    .containsExactly("child");

            child.close();
            assertThat(engine.agentGraph().children("root", Optional.of(SpawnEdgeStatus.OPEN))).isEmpty();
            assertThat(engine.agentGraph().children("root", Optional.of(SpawnEdgeStatus.CLOSED)))
                    .containsExactly("child");
        }
    }

    @Test
    void subAgentThreads_stayOutOfPhase1() {
        try (MemoryEngine engine = engine(TestHomes.config())) {
            record(engine, SessionContext.root("root"));
            record(engine, SessionContext.root("child").spawnedBy("root"));
        }
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(TestHomes.config())
                .model(new ScriptedModel()).clock(TestHomes.at(TestHomes.PIPELINE)).build()) {
            Phase1Preview preview = engine.admin().previewPhase1("none");
            Phase1Preview.Candidate child = preview.candidates().stream()
                    .filter(c -> c.thread().id().equals("child")).findFirst().orElseThrow();

            assertThat(child.thread().source()).isEqualTo("subagent");
            assertThat(child.verdict()).isEqualTo(Phase1Preview.Verdict.SOURCE_NOT_ALLOWED);
        }
    }

    @Test
    void deletingARoot_deletesItsWholeSubtree_andLeavesOtherThreads() {
        try (MemoryEngine engine = engine(TestHomes.config())) {
            recordRootChildGrandchild(engine);
            record(engine, SessionContext.root("other"));
            record(engine, SessionContext.root("other-child").spawnedBy("other"));
            assertThat(engine.agentGraph().descendants("root", ANY)).containsExactly("child", "grandchild");

            engine.threads().delete("root");

            assertThat(engine.threads().list()).extracting(ThreadInfo::id)
                    .containsExactlyInAnyOrder("other", "other-child");
            assertThat(engine.agentGraph().descendants("root", ANY)).isEmpty();
            assertThat(engine.agentGraph().children("child", ANY)).isEmpty();
            assertThat(engine.agentGraph().children("other", ANY)).containsExactly("other-child");
        }
    }

    @Test
    void externalContextInASubAgent_pollutesItsRootConversation() {
        MemoriesConfig config = TestHomes.config().toBuilder().disableOnExternalContext(true).build();
        try (MemoryEngine engine = engine(config)) {
            record(engine, SessionContext.root("root"));
            record(engine, SessionContext.root("bystander"));
            try (RecordedSession child = engine.sessions().start(SessionContext.root("child").spawnedBy("root"))) {
                child.userMessage("Search the web for the error.");
                child.externalContext("web_search");
            }

            assertThat(mode(engine, "child")).isEqualTo(MemoryMode.POLLUTED);
            assertThat(mode(engine, "root")).isEqualTo(MemoryMode.POLLUTED);
            assertThat(mode(engine, "bystander")).isEqualTo(MemoryMode.ENABLED);
        }
    }

    @Test
    void markPollutedOnAGrandchild_pollutesEveryThreadUpToTheRoot() {
        try (MemoryEngine engine = engine(TestHomes.config())) {
            recordRootChildGrandchild(engine);
            record(engine, SessionContext.root("sibling").spawnedBy("root"));

            engine.threads().markPolluted("grandchild");

            assertThat(mode(engine, "grandchild")).isEqualTo(MemoryMode.POLLUTED);
            assertThat(mode(engine, "child")).isEqualTo(MemoryMode.POLLUTED);
            assertThat(mode(engine, "root")).isEqualTo(MemoryMode.POLLUTED);
            assertThat(mode(engine, "sibling")).as("a sibling saw none of it").isEqualTo(MemoryMode.ENABLED);
        }
    }

    /** {@code root} spawned {@code child}, which spawned {@code grandchild}. */
    private static void recordRootChildGrandchild(MemoryEngine engine) {
        record(engine, SessionContext.root("root"));
        record(engine, SessionContext.root("child").spawnedBy("root"));
        record(engine, SessionContext.root("grandchild").spawnedBy("child"));
    }

    private static MemoryMode mode(MemoryEngine engine, String threadId) {
        return engine.threads().get(threadId).orElseThrow().memoryMode();
    }
}
