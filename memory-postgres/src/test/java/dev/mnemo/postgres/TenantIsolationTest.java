package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.GoalStatus;
import dev.mnemo.HistoryEntry;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.ThreadGoal;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.SelectionPolicy;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.HistoryStore;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.Phase2SelectionParams;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.testkit.TestClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two tenants in one schema using the same thread ids: nothing one does is seen by, counted for or
 * taken from the other.
 */
class TenantIsolationTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("isolation");
    }

    private static void record(MemoryEngine engine, String threadId, String fact) {
        try (RecordedSession session = engine.sessions().start(SessionContext.root(threadId))) {
            session.userMessage(fact);
        }
    }

    private static String citing(String threadId) {
        return "Done.<oai-mem-citation><citation_entries>MEMORY.md:1-2|note=[used it]</citation_entries>"
                + "<rollout_ids>" + threadId + "</rollout_ids></oai-mem-citation>";
    }

    /** The files under {@code folder} (hidden ones too) whose text holds {@code text}. */
    private static List<Path> filesHolding(Path folder, String text) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).filter(file -> {
                try {
                    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).contains(text);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        }
    }

    @Test
    void twoTenantsWithTheSameThreadIds_shareNoClaimUsageStatusHistoryNoteToolResultInstructionOrForgetting(
            @TempDir Path temp) throws IOException {
        TestClock clock = new TestClock(Fleet.START);
        try (MemoryEngine alice = Fleet.engine(backend, "alice", temp.resolve("alice"), clock);
                MemoryEngine bob = Fleet.engine(backend, "bob", temp.resolve("bob"), clock)) {
            record(alice, "t1", "FACT: alice likes rust");
            record(alice, "t2", "FACT: alice uses vim");
            record(bob, "t1", "FACT: bob likes cobol");
            // Ad-hoc notes with the same file name: each tenant's stays its own.
            String note = "extensions/ad_hoc/notes/2026-06-01T08-00-00-editor.md";
            assertThat(alice.tools().call("memories_add_ad_hoc_note", "{\"filename\":\"2026-06-01T08-00-00-editor.md\","
                    + "\"note\":\"alice note kiwi\"}")).isEqualTo("{}");
            assertThat(bob.tools().call("memories_add_ad_hoc_note", "{\"filename\":\"2026-06-01T08-00-00-editor.md\","
                    + "\"note\":\"bob note mango\"}")).isEqualTo("{}");
            clock.advance(Duration.ofHours(2));

            // Claims: each tenant extracts its own threads only.
            assertThat(alice.admin().runPhase1("none").succeeded()).isEqualTo(2);
            assertThat(backend.store("bob").stage1Output("t1")).isEmpty();
            assertThat(bob.admin().runPhase1("none").succeeded()).isEqualTo(1);
            assertThat(backend.store("bob").stage1Output("t1").orElseThrow().result().rawMemory())
                    .isEqualTo("FACT: bob likes cobol");

            // History and instructions.
            assertThat(alice.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(bob.admin().history()).isEmpty();
            // Bob has no consolidation yet: only his own note, not yet consolidated, and nothing of Alice's.
            assertThat(bob.buildDeveloperInstructions()).contains("bob note mango").doesNotContain("alice")
                    .doesNotContain("kiwi");
            assertThat(bob.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(alice.buildDeveloperInstructions()).contains("alice likes rust").doesNotContain("bob");
            assertThat(bob.buildDeveloperInstructions()).contains("bob likes cobol").doesNotContain("alice");
            assertThat(alice.admin().history()).hasSize(1);
            assertThat(alice.admin().history().get(0).threadIds()).containsExactly("t1", "t2");
            assertThat(bob.admin().history().get(0).threadIds()).containsExactly("t1");

            // Tool results.
            String search = "{\"queries\":[\"likes\"]}";
            assertThat(bob.tools().call("memories_search", search)).contains("cobol").doesNotContain("rust");
            assertThat(alice.tools().call("memories_search", search)).contains("rust").doesNotContain("cobol");
            assertThat(bob.tools().call("memories_read", "{\"path\":\"" + note + "\"}")).contains("mango")
                    .doesNotContain("kiwi");
            assertThat(alice.tools().call("memories_read", "{\"path\":\"" + note + "\"}")).contains("kiwi")
                    .doesNotContain("mango");
            assertThat(bob.tools().call("memories_search", "{\"queries\":[\"kiwi\"]}")).doesNotContain("kiwi.md")
                    .contains("\"matches\":[]");
            assertThat(filesHolding(temp.resolve("bob"), "kiwi")).isEmpty();
            assertThat(filesHolding(temp.resolve("alice"), "mango")).isEmpty();
            assertThat(bob.buildDeveloperInstructions()).doesNotContain("kiwi");

            // Usage counts.
            assertThat(alice.processAssistantMessage("t9", citing("t1")).usageRecorded()).isEqualTo(1);
            assertThat(backend.store("alice").stage1Output("t1").orElseThrow().usageCount()).isEqualTo(1);
            assertThat(backend.store("bob").stage1Output("t1").orElseThrow().usageCount()).isZero();

            // Status figures.
            MemoryStatus aliceStatus = alice.admin().status();
            MemoryStatus bobStatus = bob.admin().status();
            assertThat(aliceStatus.threadCounts().get(MemoryMode.ENABLED)).isEqualTo(2);
            assertThat(bobStatus.threadCounts().get(MemoryMode.ENABLED)).isEqualTo(1);
            assertThat(aliceStatus.stage1Outputs()).isEqualTo(2);
            assertThat(bobStatus.stage1Outputs()).isEqualTo(1);

            // Forgetting.
            alice.threads().delete("t1");
            assertThat(alice.threads().get("t1")).isEmpty();
            assertThat(bob.threads().get("t1")).isPresent();
            assertThat(backend.store("bob").stage1Output("t1")).isPresent();
            assertThat(bob.admin().status().jobCounts().get("memory_consolidate_global").get("pending")).isZero();
        }
    }

    @Test
    void theStateLayerOfOneTenant_isInvisibleToAnother_evenByOffset_andNothingOneDoesTouchesTheOther() {
        MemoryStore alice = backend.store("alice-state");
        MemoryStore bob = backend.store("bob-state");

        // The message history: rows, searches, offsets, trims and removals stay the tenant's own.
        HistoryStore aliceHistory = alice.messageHistory().orElseThrow();
        HistoryStore bobHistory = bob.messageHistory().orElseThrow();
        aliceHistory.append("t1", 1_700_000_000L, "alice plans the heist", 0);
        HistoryEntry aliceLine = aliceHistory.recent(1).get(0);
        assertThat(bobHistory.recent(10)).isEmpty();
        assertThat(bobHistory.search("heist", 10)).isEmpty();
        assertThat(bobHistory.entry(aliceLine.offset())).as("another tenant's offset finds nothing").isEmpty();
        bobHistory.append("t1", 1_700_000_000L, "bob line", 1); // max_bytes 1: trims to bob's newest line only
        HistoryEntry bobLine = bobHistory.recent(1).get(0);
        assertThat(aliceHistory.entry(bobLine.offset())).isEmpty();
        assertThat(bobHistory.removeSession("t1")).isEqualTo(1);
        assertThat(aliceHistory.recent(10)).containsExactly(aliceLine);
        assertThat(aliceHistory.entry(aliceLine.offset())).contains(aliceLine);

        // Goals: another tenant's goal id changes nothing.
        ThreadGoal aliceGoal = alice.goals().set("t1", "alice's goal", OptionalLong.of(100));
        assertThat(bob.goals().get("t1")).isEmpty();
        assertThat(bob.goals().updateStatus("t1", aliceGoal.goalId(), GoalStatus.COMPLETE)).isFalse();
        assertThat(bob.goals().accountUsage("t1", aliceGoal.goalId(), 1_000, Duration.ofHours(1))).isFalse();
        assertThat(bob.goals().delete("t1")).isFalse();
        ThreadGoal bobGoal = bob.goals().set("t1", "bob's goal", OptionalLong.empty());
        assertThat(alice.goals().get("t1")).contains(aliceGoal);
        assertThat(bob.goals().get("t1")).contains(bobGoal);

        // Thread logs: queries, partition caps, per-thread deletes and retention stay the tenant's own.
        ThreadLogStore aliceLogs = alice.threadLogs().orElseThrow();
        ThreadLogStore bobLogs = bob.threadLogs().orElseThrow();
        Instant t0 = Instant.parse("2026-06-01T12:00:00Z");
        aliceLogs.append(List.of(new ThreadLogEntry("t1", t0, "INFO", "mnemo::phase1", "alice's entry")));
        List<ThreadLogEntry> bobBatch = new ArrayList<>();
        for (int i = 0; i <= ThreadLogStore.PARTITION_ROW_LIMIT; i++) {
            bobBatch.add(new ThreadLogEntry("t1", t0.plusSeconds(i + 1), "INFO", "mnemo::phase1", "bob " + i));
        }
        bobLogs.append(bobBatch); // prunes bob's t1 to the cap, never alice's
        assertThat(bobLogs.query(ThreadLogQuery.ofThread("t1", 5_000))).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT)
                .noneMatch(entry -> entry.message().startsWith("alice"));
        assertThat(aliceLogs.query(ThreadLogQuery.ofThread("t1", 5_000))).extracting(ThreadLogEntry::message)
                .containsExactly("alice's entry");
        assertThat(bobLogs.deleteOlderThan(t0.plusSeconds(100_000))).isEqualTo(ThreadLogStore.PARTITION_ROW_LIMIT);
        assertThat(bobLogs.deleteThread("t1")).isZero();
        assertThat(aliceLogs.query(ThreadLogQuery.ofThread("t1", 5_000))).hasSize(1);
        assertThat(aliceLogs.deleteThread("t1")).isEqualTo(1);
    }

    @Test
    void theFairSelectionOfOneTenant_countsOnlyThatTenantsCitationsAndConsolidations() {
        MemoryStore alice = backend.store("alice-fair");
        MemoryStore bob = backend.store("bob-fair");
        Instant now = Instant.parse("2026-06-01T12:00:00Z");
        for (MemoryStore store : List.of(alice, bob)) {
            storeMemory(store, "t1", now.minus(Duration.ofHours(2)), now);
            storeMemory(store, "t2", now.minus(Duration.ofHours(3)), now);
        }
        alice.recordConsolidatedThreads(List.of("t1"), now.minus(Duration.ofDays(1)));
        for (int i = 0; i < 5; i++) {
            alice.recordUsage(List.of("t1"), now);
            bob.recordUsage(List.of("t2"), now);
        }
        Phase2SelectionParams onlyNew = new Phase2SelectionParams(1, 30, SelectionPolicy.FAIR, 30, 100);
        Phase2SelectionParams onlyRanked = new Phase2SelectionParams(1, 30, SelectionPolicy.FAIR, 30, 0);

        assertThat(threadIds(alice.phase2InputSelection(onlyNew, now))).as("alice consolidated t1").containsExactly("t2");
        assertThat(threadIds(bob.phase2InputSelection(onlyNew, now))).as("bob never did: the newest").containsExactly("t1");
        assertThat(threadIds(alice.phase2InputSelection(onlyRanked, now))).containsExactly("t1");
        assertThat(threadIds(bob.phase2InputSelection(onlyRanked, now))).containsExactly("t2");
    }

    private static void storeMemory(MemoryStore store, String id, Instant version, Instant now) {
        store.upsertThread(ThreadInfo.builder(id).rolloutPath(Path.of("/rollouts/" + id + ".jsonl"))
                .createdAt(version.minus(Duration.ofHours(1))).updatedAt(version).source("app")
                .preview("talk about " + id).build());
        JobClaim claim = store.tryClaimStage1Job(id, "worker", version, Duration.ofHours(1), 64, now);
        assertThat(store.markStage1Succeeded(id, claim.token(), version,
                new Stage1Result("raw memory of " + id, "summary of " + id, Optional.empty()), now)).isTrue();
    }

    private static List<String> threadIds(List<Stage1Output> selection) {
        return selection.stream().map(Stage1Output::threadId).toList();
    }
}
