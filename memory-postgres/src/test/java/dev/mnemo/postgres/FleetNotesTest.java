package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentRequest;
import dev.mnemo.spi.ConsolidationAgentResult;
import dev.mnemo.testkit.TestClock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ad-hoc notes across servers: a note the memory tools add on one server is seen by every other
 * server's tools and by whichever server consolidates next, and is pending nowhere once consolidated.
 */
class FleetNotesTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final String SCHEMA = "notes";
    private static final String NOTES = "extensions/ad_hoc/notes/";
    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend(SCHEMA);
    }

    /**
     * A consolidation agent told to absorb notes: writes the facts of raw_memories.md and the text of
     * every note into the artifacts, then deletes the notes. Remembers each diff it was shown and runs
     * {@link #during} while it works.
     */
    static final class NoteTakingAgent implements ConsolidationAgent {
        final List<String> diffs = new CopyOnWriteArrayList<>();
        volatile Runnable during = () -> { };

        @Override
        public ConsolidationAgentResult run(ConsolidationAgentRequest request) {
            try {
                Path root = request.memoryRoot();
                diffs.add(Files.readString(root.resolve("phase2_workspace_diff.md")));
                during.run();
                StringBuilder memory = new StringBuilder("# Memory\n")
                        .append(Files.readString(root.resolve("raw_memories.md")).lines()
                                .filter(line -> line.contains("FACT:")).distinct().sorted()
                                .reduce("", (a, b) -> a + b + "\n"));
                Path notes = root.resolve(NOTES);
                if (Files.isDirectory(notes)) {
                    try (Stream<Path> files = Files.list(notes)) {
                        for (Path note : files.filter(p -> !p.getFileName().toString().startsWith(".")).sorted()
                                .toList()) {
                            memory.append(Files.readString(note).strip()).append('\n');
                            Files.delete(note);
                        }
                    }
                }
                Files.writeString(root.resolve("MEMORY.md"), memory);
                Files.writeString(root.resolve("memory_summary.md"), "v1\n" + memory);
                return ConsolidationAgentResult.completed(Fleet.USAGE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A data source that can be made unreachable: every connection request then fails. */
    static final class SwitchableDataSource implements DataSource {
        private final DataSource delegate;
        volatile boolean down;

        SwitchableDataSource(DataSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (down) {
                throw new SQLException("Connection refused (test: database down)", "08001");
            }
            return delegate.getConnection();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return delegate.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            delegate.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            delegate.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return delegate.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return delegate.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return delegate.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return delegate.isWrapperFor(iface);
        }
    }

    private static MemoryEngine engine(PostgresBackend on, String tenant, Path cache, Clock clock,
            ConsolidationAgent agent) {
        return on.engineBuilder(tenant, cache).config(Fleet.config()).extractionModel(Fleet.extractionModel())
                .consolidationAgent(agent).clock(clock).build();
    }

    private static String addNote(MemoryEngine engine, String filename, String text) {
        return engine.tools().call("memories_add_ad_hoc_note",
                "{\"filename\":\"" + filename + "\",\"note\":\"" + text + "\"}");
    }

    private static String search(MemoryEngine engine, String query) {
        return engine.tools().call("memories_search", "{\"queries\":[\"" + query + "\"]}");
    }

    private static void record(MemoryEngine engine, String threadId, String fact) {
        try (RecordedSession session = engine.sessions().start(SessionContext.root(threadId))) {
            session.userMessage(fact);
        }
    }

    /** The pending note paths of {@code tenant}, read from the table itself. */
    private static List<String> pendingNotes(String tenant) throws SQLException {
        List<String> paths = new ArrayList<>();
        try (Connection connection = DB.dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT path FROM " + SCHEMA
                        + ".tenant_pending_notes WHERE tenant_id = ? ORDER BY path")) {
            statement.setString(1, tenant);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    paths.add(rows.getString(1));
                }
            }
        }
        return paths;
    }

    private static SortedMap<String, byte[]> memoryFiles(Path cache) throws IOException {
        return new LocalFiles(cache.resolve("memories").toAbsolutePath().normalize()).scan();
    }

    private static void assertSameFiles(Path cacheA, Path cacheB) throws IOException {
        SortedMap<String, byte[]> a = memoryFiles(cacheA);
        SortedMap<String, byte[]> b = memoryFiles(cacheB);
        assertThat(a.keySet()).isEqualTo(b.keySet());
        for (String path : a.keySet()) {
            assertThat(new String(a.get(path), StandardCharsets.UTF_8)).as(path)
                    .isEqualTo(new String(b.get(path), StandardCharsets.UTF_8));
        }
    }

    @Test
    void forgettingAConversationOnA_removesItsNoteFromTheDatabase_andFromBsFolder(@TempDir Path temp)
            throws Exception {
        TestClock clock = new TestClock(Fleet.START);
        NoteTakingAgent agent = new NoteTakingAgent();
        Path cacheA = temp.resolve("server-a");
        Path cacheB = temp.resolve("server-b");
        try (MemoryEngine a = engine(backend, "user-forget", cacheA, clock, agent);
                MemoryEngine b = engine(backend, "user-forget", cacheB, clock, agent)) {
            try (MemorySession session = a.openSession(SessionContext.root("conversation-forgotten"))) {
                session.startupTask().completion().join();
                assertThat(session.callTool("call-1", "memories_add_ad_hoc_note",
                        "{\"filename\":\"2026-06-01T08-00-00-forgotten.md\",\"note\":\"NOTE: use pnpm\"}"))
                        .isEqualTo("{}");
            }
            addNote(a, "2026-06-01T08-01-00-kept.md", "NOTE: user prefers tabs");
            assertThat(b.buildDeveloperInstructions()).contains("use pnpm");
            assertThat(pendingNotes("user-forget")).containsExactly(NOTES + "2026-06-01T08-00-00-forgotten.md",
                    NOTES + "2026-06-01T08-01-00-kept.md");

            a.threads().delete("conversation-forgotten");

            assertThat(pendingNotes("user-forget")).containsExactly(NOTES + "2026-06-01T08-01-00-kept.md");
            assertThat(cacheA.resolve("memories/" + NOTES + "2026-06-01T08-00-00-forgotten.md")).doesNotExist();
            assertThat(b.buildDeveloperInstructions()).doesNotContain("use pnpm").contains("user prefers tabs");
            assertThat(cacheB.resolve("memories/" + NOTES + "2026-06-01T08-00-00-forgotten.md")).doesNotExist();
        }
    }

    @Test
    void noteAddedOnA_isInBsToolResultsAndPhase2Diff_andPendingNowhereOnceBConsolidatedIt(@TempDir Path temp)
            throws Exception {
        TestClock clock = new TestClock(Fleet.START);
        NoteTakingAgent agent = new NoteTakingAgent();
        Path cacheA = temp.resolve("server-a");
        Path cacheB = temp.resolve("server-b");
        try (MemoryEngine a = engine(backend, "user-1", cacheA, clock, agent);
                MemoryEngine b = engine(backend, "user-1", cacheB, clock, agent)) {
            record(a, "conversation-1", "FACT: user builds with maven");
            assertThat(b.buildDeveloperInstructions()).isEmpty();

            assertThat(addNote(a, "2026-06-01T08-00-00-tabs.md", "NOTE: user prefers tabs")).isEqualTo("{}");

            String note = NOTES + "2026-06-01T08-00-00-tabs.md";
            assertThat(pendingNotes("user-1")).containsExactly(note);
            assertThat(search(b, "prefers tabs")).contains(note);
            assertThat(b.tools().call("memories_read", "{\"path\":\"" + note + "\"}"))
                    .contains("NOTE: user prefers tabs");

            clock.advance(Duration.ofHours(2));
            b.admin().runPhase1("none");
            assertThat(b.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

            assertThat(agent.diffs).hasSize(1);
            assertThat(agent.diffs.get(0)).contains(note).contains("NOTE: user prefers tabs");
            assertThat(pendingNotes("user-1")).isEmpty();
            assertThat(a.buildDeveloperInstructions()).contains("NOTE: user prefers tabs")
                    .contains("FACT: user builds with maven");
            assertThat(cacheA.resolve("memories").resolve(note)).doesNotExist();
            assertSameFiles(cacheA, cacheB);
        }
    }

    @Test
    void noteWrittenWhileTheDatabaseIsUnreachable_isStoredOnTheNextRefresh(@TempDir Path temp) throws Exception {
        TestClock clock = new TestClock(Fleet.START);
        SwitchableDataSource flaky = new SwitchableDataSource(DB.dataSource());
        PostgresBackend flakyBackend = PostgresBackend.builder().dataSource(flaky).schema(SCHEMA).build();
        try (MemoryEngine a = engine(flakyBackend, "user-2", temp.resolve("server-a"), clock, Fleet.agent());
                MemoryEngine b = engine(backend, "user-2", temp.resolve("server-b"), clock, Fleet.agent())) {
            a.buildDeveloperInstructions();
            flaky.down = true;

            assertThat(addNote(a, "2026-06-01T08-00-00-offline.md", "NOTE: written offline")).isEqualTo("{}");

            assertThat(search(a, "written offline")).contains("2026-06-01T08-00-00-offline.md");
            assertThat(pendingNotes("user-2")).isEmpty();
            assertThat(search(b, "written offline")).doesNotContain("offline.md");

            flaky.down = false;
            a.buildDeveloperInstructions();

            assertThat(pendingNotes("user-2")).containsExactly(NOTES + "2026-06-01T08-00-00-offline.md");
            assertThat(search(b, "written offline")).contains("2026-06-01T08-00-00-offline.md");
        }
    }

    @Test
    void commitOnAnotherServer_keepsANoteAddedAfterItsConsolidationStarted(@TempDir Path temp) throws Exception {
        TestClock clock = new TestClock(Fleet.START);
        NoteTakingAgent agent = new NoteTakingAgent();
        Path cacheA = temp.resolve("server-a");
        Path cacheB = temp.resolve("server-b");
        String early = NOTES + "2026-06-01T08-00-00-early.md";
        String late = NOTES + "2026-06-01T08-05-00-late.md";
        try (MemoryEngine a = engine(backend, "user-3", cacheA, clock, agent);
                MemoryEngine b = engine(backend, "user-3", cacheB, clock, agent)) {
            record(a, "conversation-1", "FACT: user likes tea");
            addNote(a, "2026-06-01T08-00-00-early.md", "NOTE: early note");
            List<String> seenByB = new CopyOnWriteArrayList<>();
            agent.during = () -> {
                assertThat(addNote(a, "2026-06-01T08-05-00-late.md", "NOTE: late note")).isEqualTo("{}");
                // B's own read path runs meanwhile; its consolidation must not take the late note.
                b.buildDeveloperInstructions();
                seenByB.add(search(b, "late note"));
            };
            clock.advance(Duration.ofHours(2));
            b.admin().runPhase1("none");
            assertThat(b.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            agent.during = () -> { };

            assertThat(agent.diffs.get(0)).contains(early).doesNotContain(late);
            assertThat(seenByB.get(0)).doesNotContain(late);
            assertThat(pendingNotes("user-3")).containsExactly(late);
            // The early note is consolidated; the late one shows as the user's own words, still pending.
            String instructions = a.buildDeveloperInstructions();
            assertThat(instructions).contains("NOTE: early note");
            int notes = instructions.indexOf("not yet consolidated");
            String pending = instructions.substring(notes, instructions.indexOf("\n\n", instructions.indexOf("\n- ", notes)));
            assertThat(pending).contains("NOTE: late note").doesNotContain("NOTE: early note");
            assertThat(cacheA.resolve("memories").resolve(late)).hasContent("NOTE: late note");
            assertThat(cacheA.resolve("memories").resolve(early)).doesNotExist();

            assertThat(search(b, "late note")).contains(late);
            clock.advance(Duration.ofHours(7)); // past the consolidation cooldown
            record(b, "conversation-2", "FACT: user likes coffee");
            clock.advance(Duration.ofHours(2));
            b.admin().runPhase1("none");
            assertThat(b.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(agent.diffs.get(1)).contains(late).contains("NOTE: late note");
            assertThat(pendingNotes("user-3")).isEmpty();
            a.buildDeveloperInstructions();
            assertSameFiles(cacheA, cacheB);
        }
    }

    @Test
    void serverReopeningAStaleCache_neitherRevivesAConsolidatedNoteNorLosesAnUnstoredOne(@TempDir Path temp)
            throws Exception {
        TestClock clock = new TestClock(Fleet.START);
        NoteTakingAgent agent = new NoteTakingAgent();
        Path cacheA = temp.resolve("server-a");
        String consolidated = NOTES + "2026-06-01T08-00-00-old.md";
        String unstored = NOTES + "2026-06-01T08-01-00-unstored.md";
        try (MemoryEngine a = engine(backend, "user-4", cacheA, clock, agent)) {
            record(a, "conversation-1", "FACT: user likes jazz");
            addNote(a, "2026-06-01T08-00-00-old.md", "NOTE: old note");
        }
        // Left behind by a server that wrote a note and stopped before storing it (or an older Mnemo).
        write(cacheA.resolve("memories").resolve(unstored), "NOTE: unstored note");
        try (MemoryEngine b = engine(backend, "user-4", temp.resolve("server-b"), clock, agent)) {
            clock.advance(Duration.ofHours(2));
            b.admin().runPhase1("none");
            assertThat(b.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
        }
        assertThat(pendingNotes("user-4")).isEmpty();

        try (MemoryEngine a = engine(backend, "user-4", cacheA, clock, agent)) {
            assertThat(a.buildDeveloperInstructions()).contains("NOTE: old note");

            assertThat(cacheA.resolve("memories").resolve(consolidated)).doesNotExist();
            assertThat(cacheA.resolve("memories").resolve(unstored)).hasContent("NOTE: unstored note");
            assertThat(pendingNotes("user-4")).containsExactly(unstored);
        }
    }

    @Test
    void sameNoteNameStoredFirstWithOtherContent_isReportedTakenAndTheStoredNoteKept(@TempDir Path temp)
            throws Exception {
        Path rootA = temp.resolve("a/memories");
        Path rootB = temp.resolve("b/memories");
        String name = NOTES + "2026-06-01T08-00-00-race.md";
        try (PostgresMemoryWorkspace a = workspace("user-5", rootA);
                PostgresMemoryWorkspace b = workspace("user-5", rootB)) {
            a.prepare();
            b.prepare();
            Path noteA = write(rootA.resolve(name), "NOTE: from A");
            Path noteB = write(rootB.resolve(name), "NOTE: from B");

            assertThat(a.noteAdded(noteA)).isTrue();
            assertThat(b.noteAdded(noteB)).isFalse();
            assertThat(a.noteAdded(noteA)).isTrue(); // the same bytes again: nothing to report

            assertThat(noteB).hasContent("NOTE: from A");
            assertThat(pendingNotes("user-5")).containsExactly(name);
        }
    }

    @Test
    void noteAddedThroughALinkedCacheFolder_isStored(@TempDir Path temp) throws Exception {
        Path real = Files.createDirectories(temp.resolve("real-cache"));
        Path linked = Files.createSymbolicLink(temp.resolve("cache-link"), real);
        try (MemoryEngine a = engine(backend, "user-6", linked, new TestClock(Fleet.START), Fleet.agent())) {
            assertThat(addNote(a, "2026-06-01T08-00-00-linked.md", "NOTE: through a link")).isEqualTo("{}");

            assertThat(pendingNotes("user-6")).containsExactly(NOTES + "2026-06-01T08-00-00-linked.md");
        }
    }

    private static PostgresMemoryWorkspace workspace(String tenant, Path root) {
        return new PostgresMemoryWorkspace(backend.database(), tenant, root, new Phase2Lock(), Clock.systemUTC());
    }

    private static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }
}
