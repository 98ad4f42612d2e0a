package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.testkit.TestClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
}
