package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.AnswerStream;
import dev.mnemo.AssistantMessage;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.spi.MemoryEventListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link MemorySession}, the one handle per conversation, over a real SQLite store and git workspace. */
class MemorySessionTest {

    @TempDir
    Path home;

    static Stream<String> conversationIds() {
        return Stream.of("chat-42", "user@example.com/7", "conv/" + "é".repeat(150) + "-" + "9".repeat(145));
    }

    private static String citing(String visible, String id) {
        return visible + "<oai-mem-citation>\n<citation_entries>\nMEMORY.md:1-2|note=[used]\n</citation_entries>\n"
                + "<rollout_ids>\n" + id + "\n</rollout_ids>\n</oai-mem-citation>";
    }

    /**
     * Opens a session and waits for the startup task it started, so the background run never
     * races the phases a test runs by hand.
     */
    private static MemorySession open(Pipeline p, String id) {
        MemorySession session = p.engine.openSession(SessionContext.root(id));
        session.startupTask().completion().join();
        return session;
    }

    private static List<String> rolloutLines(Pipeline p, String threadId) throws IOException {
        return Files.readAllLines(p.store.thread(threadId).orElseThrow().rolloutPath());
    }

    @ParameterizedTest
    @MethodSource("conversationIds")
    void anyConversationId_isRecordedExtractedConsolidatedCitedAndCounted(String id) throws IOException {
        try (Pipeline p = new Pipeline(home)) {
            p.model.extraction = request -> ScriptedModel.reply("- deploys go out with `make ship`", "shipping", "ship");
            try (MemorySession session = open(p, id)) {
                session.userMessage("how do we deploy?");
                session.assistantMessage("Run make ship.");
            }
            p.idle(); // also past the cooldown of the startup task's own (empty) consolidation
            assertThat(p.engine.admin().runPhase1("someone-else").succeeded()).isEqualTo(1);
            p.engine.admin().runPhase2();
            assertThat(Files.readString(p.memoryRoot().resolve("raw_memories.md"))).contains("## Thread `" + id + "`");

            try (MemorySession reader = open(p, "reader")) {
                AssistantMessage answer = reader.assistantMessage(citing("Use make ship.", id));

                assertThat(answer.visibleText()).isEqualTo("Use make ship.");
                assertThat(answer.usageRecorded()).isEqualTo(1);
            }
            assertThat(p.store.stage1Output(id).orElseThrow().usageCount()).isEqualTo(1);
        }
    }

    @Test
    void developerInstructions_nameTheMemoryToolsTheSessionHandsOut_notShellPaths() {
        try (Pipeline p = new Pipeline(home)) {
            p.recordSession("where are the release notes?");
            p.idle();
            p.engine.admin().runPhase1("current");
            p.engine.admin().runPhase2();

            try (MemorySession session = open(p, "current")) {
                String instructions = session.developerInstructions();

                assertThat(session.toolSpecs()).extracting(spec -> spec.name())
                        .contains("memories_search", "memories_read", "memories_list", "memories_add_ad_hoc_note");
                assertThat(instructions).contains("MEMORY_SUMMARY BEGINS", "`memories_search`", "`memories_read`")
                        .doesNotContain(p.memoryRoot().toString());
            }
            assertThat(p.engine.buildDeveloperInstructions()).contains(p.memoryRoot() + "/MEMORY.md");
        }
    }

    @Test
    void callTool_runsTheToolAndRecordsCallAndOutput() throws IOException {
        try (Pipeline p = new Pipeline(home); MemorySession session = open(p, "t1")) {
            String output = session.callTool("call_7", "memories_list", "{}");

            assertThat(output).startsWith("{");
            List<String> lines = rolloutLines(p, "t1");
            assertThat(lines).anyMatch(l -> l.contains("\"function_call\"") && l.contains("\"call_id\":\"call_7\"")
                    && l.contains("memories_list"));
            assertThat(lines).anyMatch(l -> l.contains("\"function_call_output\"") && l.contains("\"call_id\":\"call_7\""));
        }
    }

    @Test
    void streamAnswer_hidesCitationSplitAcrossChunks_andCountsItOnceWhenFinished() throws IOException {
        try (Pipeline p = new Pipeline(home)) {
            String cited = p.recordSession("what is the port?");
            p.idle();
            p.engine.admin().runPhase1("t2");
            try (MemorySession session = open(p, "t2")) {
                String raw = citing("Port 8080.", cited);
                AnswerStream stream = session.streamAnswer();
                StringBuilder shown = new StringBuilder();
                for (int i = 0; i < raw.length(); i += 3) {
                    shown.append(stream.push(raw.substring(i, Math.min(raw.length(), i + 3))));
                }
                assertThat(shown.toString()).isEqualTo("Port 8080.");

                AssistantMessage finished = stream.finish();
                AssistantMessage again = stream.finish();

                assertThat(finished.visibleText()).isEqualTo("Port 8080.");
                assertThat(finished.usageRecorded()).isEqualTo(1);
                assertThat(again).isSameAs(finished);
            }
            assertThat(p.store.stage1Output(cited).orElseThrow().usageCount()).isEqualTo(1);
            assertThat(rolloutLines(p, "t2")).anyMatch(l -> l.contains("\"output_text\",\"text\":\"Port 8080.\""))
                    .noneMatch(l -> l.contains("oai-mem-citation"));
        }
    }

    @Test
    void closingDuringAStreamedAnswer_recordsWhatWasShown_andCountsNothing() throws IOException {
        try (Pipeline p = new Pipeline(home)) {
            String cited = p.recordSession("what is the port?");
            p.idle();
            p.engine.admin().runPhase1("t3");
            MemorySession session = open(p, "t3");
            AnswerStream stream = session.streamAnswer();
            stream.push("Port 80");
            stream.push("80.<oai-mem-citation><rollout_ids>\n" + cited);

            session.close();

            assertThat(rolloutLines(p, "t3")).anyMatch(l -> l.contains("\"text\":\"Port 8080.\""));
            assertThat(p.store.stage1Output(cited).orElseThrow().usageCount()).isZero();
            assertThatThrownBy(() -> session.userMessage("late")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("t3");
        }
    }

    @Test
    void engineClose_closesOpenSessions_recordingUnfinishedAnswers() throws IOException {
        Pipeline p = new Pipeline(home);
        MemorySession session = open(p, "t4");
        session.userMessage("hello");
        session.streamAnswer().push("Hi th");

        p.close();

        assertThatThrownBy(() -> session.userMessage("late")).isInstanceOf(IllegalStateException.class);
        try (Pipeline reopened = new Pipeline(home)) {
            assertThat(rolloutLines(reopened, "t4")).anyMatch(l -> l.contains("\"text\":\"Hi th\""));
        }
    }

    @Test
    void conversation_sharesOneHandlePerId_andOpeningItTwiceIsRefused() {
        try (Pipeline p = new Pipeline(home)) {
            MemorySession first = p.engine.conversation("c1");
            first.startupTask().completion().join();

            assertThat(p.engine.conversation("c1")).isSameAs(first);
            assertThatThrownBy(() -> p.engine.openSession(SessionContext.root("c1")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already open");

            first.close();
            MemorySession second = p.engine.conversation("c1");
            second.startupTask().completion().join();
            assertThat(second).isNotSameAs(first);
        }
    }

    @Test
    void reopenedConversation_continuesItsRollout() throws IOException {
        try (Pipeline p = new Pipeline(home)) {
            try (MemorySession session = open(p, "c2")) {
                session.userMessage("first");
            }
            try (MemorySession session = open(p, "c2")) {
                session.userMessage("second");
            }

            List<String> lines = rolloutLines(p, "c2");
            assertThat(lines).filteredOn(l -> l.contains("\"session_meta\"")).hasSize(1);
            assertThat(lines).anyMatch(l -> l.contains("first")).anyMatch(l -> l.contains("second"));
        }
    }

    @Test
    void listener_hearsWhichConversationCitedWhat() {
        List<String> heard = new CopyOnWriteArrayList<>();
        MemoryEventListener listener = new MemoryEventListener() {
            @Override
            public void memoriesCited(String threadId, List<String> rolloutIds, int counted) {
                heard.add(threadId + " " + rolloutIds + " " + counted);
            }
        };
        try (Pipeline p = new Pipeline(home, MemoriesConfig.defaults(), null, listener);
                MemorySession session = open(p, "asker")) {
            session.assistantMessage(citing("ok", "unknown-id"));
            p.engine.processAssistantMessage("other", citing("ok", "chat-9"));

            assertThat(heard).containsExactly("asker [unknown-id] 0", "other [chat-9] 0");
        }
    }

    @Test
    void openingASession_startsThePipeline_whichExtractsAnIdlePastConversation() {
        try (Pipeline p = new Pipeline(home)) {
            String past = p.recordSession("how do we release?");
            p.idle();
            try (MemorySession session = open(p, "t5")) {
                StartupReport report = session.startupTask().completion().join();

                assertThat(report.skipped()).isEmpty();
                assertThat(report.phase1().succeeded()).isEqualTo(1);
                assertThat(p.store.stage1Output(past)).isPresent();
            }
        }
    }
}
