package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.AnswerStream;
import dev.mnemo.AssistantMessage;
import dev.mnemo.CitationEntry;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemoryReceipt.InjectedFile;
import dev.mnemo.MemoryReceipt.ToolRead;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every answer's receipt, through the engine on a real SQLite store and git workspace: what the turn
 * was given (summaries and notes, by hash and size), what it read with the memory tools, what it
 * cited; each logged in the conversation's thread log; never any memory text or secret. And the
 * read path's memory operations, told on the caller's thread.
 */
class ReceiptEngineTest {

    private static final String SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    private static final String MEMORY_TEXT = "Deploys go out with make ship on Tuesdays";
    private static final String APP = "git@example.com:team/app.git";

    @TempDir
    Path home;

    private final MutableClock clock = new MutableClock(Pipeline.T0);
    private final List<MemoryOperation> operations = new CopyOnWriteArrayList<>();
    private final List<Thread> operationThreads = new CopyOnWriteArrayList<>();

    private MemoryEngine engine(MemoriesConfig config) {
        MemoryEventListener listener = new MemoryEventListener() {
            @Override
            public void memoryOperation(MemoryOperation operation) {
                operations.add(operation);
                operationThreads.add(Thread.currentThread());
            }
        };
        return MemoryEngine.builder().home(home).config(config).clock(clock).listener(listener).build();
    }

    private MemoryEngine engine() {
        return engine(MemoriesConfig.defaults());
    }

    private void write(String relative, String text) throws IOException {
        Path file = home.resolve("memories").resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static String citing(String visible) {
        return visible + "<oai-mem-citation>\n<citation_entries>\nMEMORY.md:1-2|note=[" + MEMORY_TEXT
                + "]\n</citation_entries>\n<rollout_ids>\nchat-7\n</rollout_ids>\n</oai-mem-citation>";
    }

    private static List<MemoryReceipt> receiptsIn(MemoryEngine engine, String threadId) {
        engine.threadLogs().flush();
        return engine.threadLogs().query(threadId, 100).stream()
                .filter(entry -> entry.target().equals(MemoryReceipt.LOG_TARGET))
                .map(entry -> MemoryReceipt.fromLogMessage(entry.message()).orElseThrow()).toList();
    }

    @Test
    void aTurnGivenMemory_thatReadsAndCites_hasAReceiptNamingAllThree_andNoMemoryTextOrSecret() throws IOException {
        String summary = MEMORY_TEXT + ". The deploy token " + SECRET + " is in the vault.\n";
        write("memory_summary.md", summary);
        try (MemoryEngine engine = engine(); MemorySession session = engine.openSession(SessionContext.root("chat-1"))) {
            session.userMessage("how do we deploy?");
            session.developerInstructions();
            session.callTool("c1", MemoryTools.READ, "{\"path\":\"memory_summary.md\"}");
            String searched = session.callTool("c2", MemoryTools.SEARCH, "{\"queries\":[\"" + SECRET + " deploy\"]}");
            AssistantMessage answer = session.assistantMessage(citing("Run make ship."));

            MemoryReceipt receipt = answer.receipt();
            assertThat(receipt.threadId()).isEqualTo("chat-1");
            assertThat(receipt.injected()).containsExactly(new InjectedFile("global", "summary", "memory_summary.md",
                    sha256(summary), summary.getBytes(StandardCharsets.UTF_8).length,
                    receipt.injected().get(0).tokens(), false));
            assertThat(receipt.injected().get(0).tokens()).isPositive();
            assertThat(receipt.reads()).hasSize(2);
            assertThat(receipt.reads().get(0)).extracting(ToolRead::tool, ToolRead::target, ToolRead::failed)
                    .containsExactly(MemoryTools.READ, "memory_summary.md", false);
            assertThat(receipt.reads().get(1).tool()).isEqualTo(MemoryTools.SEARCH);
            assertThat(receipt.reads().get(1).target()).contains("deploy").doesNotContain(SECRET);
            assertThat(receipt.reads().get(1).bytesReturned())
                    .isEqualTo(searched.getBytes(StandardCharsets.UTF_8).length);
            assertThat(receipt.citations()).singleElement().satisfies(c -> {
                assertThat(c.entries()).containsExactly(new CitationEntry("MEMORY.md", 1, 2, ""));
                assertThat(c.rolloutIds()).containsExactly("chat-7");
            });
            assertThat(answer.citation().orElseThrow().entries().get(0).note()).isEqualTo(MEMORY_TEXT);
            for (String shown : List.of(receipt.toLogMessage(), receipt.toString())) {
                assertThat(shown).doesNotContain(SECRET).doesNotContain("ghp_").doesNotContain("make ship")
                        .doesNotContain("Tuesdays");
            }
            assertThat(receiptsIn(engine, "chat-1")).containsExactly(receipt);
        }
    }

    @Test
    void aSummaryCutByTheCap_isMarkedTruncated() throws IOException {
        write("memory_summary.md", "- a fact worth keeping\n".repeat(2_000));
        try (MemoryEngine engine = engine(MemoriesConfig.builder().summaryTokenLimit(500).build());
                MemorySession session = engine.openSession(SessionContext.root("chat-2"))) {
            session.developerInstructions();

            InjectedFile global = session.assistantMessage("ok").receipt().injected().get(0);

            assertThat(global.truncated()).isTrue();
            assertThat(global.tokens()).isLessThanOrEqualTo(520);
            assertThat(global.bytes()).isEqualTo(23L * 2_000);
            assertThat(session.assistantMessage("again").receipt().toLogMessage()).contains("cut by the cap");
        }
    }

    @Test
    void aProjectSession_isGivenItsProjectsSummary_underItsScope() throws IOException {
        String slug = ProjectKeys.slug(APP);
        write("projects/" + slug + "/memory_summary.md", "The app uses pnpm.");
        write("memory_summary.md", "Prefer small commits.");
        try (MemoryEngine engine = engine();
                MemorySession session = engine.openSession(SessionContext.root("chat-3").inProject(APP))) {
            session.developerInstructions();

            MemoryReceipt receipt = session.assistantMessage("ok").receipt();

            assertThat(receipt.injected()).extracting(InjectedFile::scope, InjectedFile::path).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("project:" + slug, "projects/" + slug + "/memory_summary.md"),
                    org.assertj.core.groups.Tuple.tuple("global", "memory_summary.md"));
        }
    }

    @Test
    void aTurnWithNoMemory_hasAnEmptyReceipt_andEachTurnItsOwnReads() throws IOException {
        try (MemoryEngine engine = engine(); MemorySession session = engine.openSession(SessionContext.root("chat-4"))) {
            assertThat(session.developerInstructions()).isEmpty();
            session.callTool("c1", MemoryTools.LIST, "{}");
            MemoryReceipt first = session.assistantMessage("first").receipt();
            MemoryReceipt second = session.assistantMessage("second").receipt();

            assertThat(first.given()).isFalse();
            assertThat(first.reads()).singleElement().extracting(ToolRead::tool).isEqualTo(MemoryTools.LIST);
            assertThat(first.cited()).isFalse();
            assertThat(second).isEqualTo(MemoryReceipt.none("chat-4"));
            assertThat(second.toLogMessage()).startsWith("memory given: none; read: none; cited: none");
            assertThat(receiptsIn(engine, "chat-4")).containsExactly(first, second);
        }
    }

    @Test
    void goalToolsAndNotes_areNotReads() throws IOException {
        try (MemoryEngine engine = engine(); MemorySession session = engine.openSession(SessionContext.root("chat-5"))) {
            session.callTool("c1", MemoryTools.ADD_AD_HOC_NOTE,
                    "{\"filename\":\"2026-11-01T09-00-00-use-yarn.md\",\"note\":\"Use yarn.\"}");

            assertThat(session.assistantMessage("noted").receipt().reads()).isEmpty();
        }
    }

    @Test
    void aStreamedAnswer_hasTheSameReceipt_andAnAbandonedOneIsLoggedWithoutCitations() throws IOException {
        write("memory_summary.md", "Prefer small commits.");
        try (MemoryEngine engine = engine()) {
            MemorySession session = engine.openSession(SessionContext.root("chat-6"));
            session.developerInstructions();
            session.callTool("c1", MemoryTools.READ, "{\"path\":\"memory_summary.md\"}");
            AnswerStream stream = session.streamAnswer();
            String raw = citing("Small commits.");
            stream.push(raw.substring(0, 20));
            stream.push(raw.substring(20));
            MemoryReceipt finished = stream.finish().receipt();

            assertThat(finished.given()).isTrue();
            assertThat(finished.reads()).hasSize(1);
            assertThat(finished.citations()).hasSize(1);

            session.callTool("c2", MemoryTools.LIST, "{}");
            AnswerStream abandoned = session.streamAnswer();
            abandoned.push("Half an ans");
            session.close();

            List<MemoryReceipt> logged = receiptsIn(engine, "chat-6");
            assertThat(logged).hasSize(2);
            assertThat(logged.get(0)).isEqualTo(finished);
            assertThat(logged.get(1).injected()).isEqualTo(finished.injected());
            assertThat(logged.get(1).reads()).extracting(ToolRead::tool).containsExactly(MemoryTools.LIST);
            assertThat(logged.get(1).citations()).isEmpty();
        }
    }

    @Test
    void processAssistantMessage_hasAReceiptOfItsThreadAndCitationsOnly() throws IOException {
        write("memory_summary.md", "Prefer small commits.");
        try (MemoryEngine engine = engine()) {
            engine.buildToolInstructions();

            MemoryReceipt receipt = engine.processAssistantMessage("chat-8", citing("Small.")).receipt();

            assertThat(receipt.threadId()).isEqualTo("chat-8");
            assertThat(receipt.injected()).isEmpty();
            assertThat(receipt.reads()).isEmpty();
            assertThat(receipt.citations()).singleElement().extracting(c -> c.rolloutIds())
                    .isEqualTo(List.of("chat-7"));
            assertThat(receiptsIn(engine, "chat-8")).containsExactly(receipt);
        }
    }

    @Test
    void readPathOperations_areToldOnTheCallersThread_withTheirTypesAndSources() throws IOException {
        write("memory_summary.md", "Prefer small commits.");
        try (MemoryEngine engine = engine(); MemorySession session = engine.openSession(SessionContext.root("chat-9"))) {
            operations.clear();
            operationThreads.clear();
            session.developerInstructions();
            session.callTool("c1", MemoryTools.READ, "{\"path\":\"memory_summary.md\"}");
            session.callTool("c2", MemoryTools.SEARCH, "{\"queries\":[\"commits\"]}");
            session.callTool("c3", MemoryTools.LIST, "{}");
            session.callTool("c4", MemoryTools.READ, "{\"path\":\"missing.md\"}");
            session.callTool("c5", MemoryTools.ADD_AD_HOC_NOTE,
                    "{\"filename\":\"2026-11-01T09-00-00-use-yarn.md\",\"note\":\"Use yarn.\"}");

            assertThat(operations).extracting(MemoryOperation::type, MemoryOperation::source).containsExactly(
                    org.assertj.core.groups.Tuple.tuple(MemoryOperation.Type.SEARCH, "instructions"),
                    org.assertj.core.groups.Tuple.tuple(MemoryOperation.Type.SEARCH, MemoryTools.READ),
                    org.assertj.core.groups.Tuple.tuple(MemoryOperation.Type.SEARCH, MemoryTools.SEARCH),
                    org.assertj.core.groups.Tuple.tuple(MemoryOperation.Type.SEARCH, MemoryTools.LIST),
                    org.assertj.core.groups.Tuple.tuple(MemoryOperation.Type.SEARCH, MemoryTools.READ),
                    org.assertj.core.groups.Tuple.tuple(MemoryOperation.Type.CREATE, MemoryTools.ADD_AD_HOC_NOTE));
            assertThat(operationThreads).containsOnly(Thread.currentThread());
            assertThat(operations).allSatisfy(op -> {
                assertThat(op.storeId()).isEqualTo(home.getFileName().toString());
                assertThat(op.runId()).isEmpty();
                assertThat(op.startedAt()).isEqualTo(clock.instant());
            });
            assertThat(operations.get(0).recordCount()).isEqualTo(1);
            assertThat(operations.get(1).recordId()).contains("memory_summary.md");
            assertThat(operations.get(1).recordCount()).isEqualTo(1);
            assertThat(operations.get(1).records()).singleElement().asString().contains("Prefer small commits.");
            assertThat(operations.get(2).query()).contains("commits");
            assertThat(operations.get(2).recordCount()).isEqualTo(1);
            assertThat(operations.get(4).errorType()).contains("tool_error");
            assertThat(operations.get(5).recordId()).contains("extensions/ad_hoc/notes/2026-11-01T09-00-00-use-yarn.md");
        }
    }

    @Test
    void anEngineWithNoConsolidationModel_saysInThePhase2LogWhyItCannotConsolidate() throws Exception {
        try (MemoryEngine engine = engine()) {
            engine.startStartupTask(SessionContext.root("chat-10")).completion().get();
            engine.threadLogs().flush();

            assertThat(engine.threadLogs().query(ThreadLogs.PHASE2_THREAD, 10)).extracting(ThreadLogEntry::message)
                    .anySatisfy(m -> assertThat(m).startsWith("phase 2 cannot run: no consolidation model or agent"));
        }
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
