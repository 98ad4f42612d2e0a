package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryWorkspaceException;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.SelectedInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PostgresMemoryWorkspace#dropHistoryFrom} in fleet mode: the dropped entries' text is in no
 * live row of the schema, and another server's next refresh serves the restored files.
 */
class DropHistoryTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final String SCHEMA = "drops";
    private static final Instant AT = Instant.parse("2026-03-01T00:00:00Z");
    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend(SCHEMA);
    }

    private static PostgresMemoryWorkspace server(String tenant, Path root) {
        PostgresMemoryWorkspace workspace = new PostgresMemoryWorkspace(backend.database(), tenant, root,
                new Phase2Lock(), Clock.systemUTC());
        workspace.prepare();
        return workspace;
    }

    private static ConsolidationRecord record(String id) {
        return new ConsolidationRecord(id, AT, List.of(new SelectedInput("thread-" + id, AT)), "gpt-test",
                TokenUsage.ZERO);
    }

    private static void write(Path root, String path, String content) throws IOException {
        Files.createDirectories(root.resolve(path).getParent());
        Files.writeString(root.resolve(path), content, StandardCharsets.UTF_8);
    }

    /** Server A consolidates twice: {@code c1} with "alpha", {@code c2} adding {@code secret}. */
    private static void alphaThenSecret(PostgresMemoryWorkspace a, String secret) throws IOException {
        write(a.root(), "MEMORY.md", "alpha\n");
        a.commit(record("c1"), 10);
        write(a.root(), "MEMORY.md", "alpha\n" + secret + "\n");
        write(a.root(), "skills/s/SKILL.md", secret + " skill\n");
        a.commit(record("c2"), 10);
    }

    @Test
    void drop_leavesTheDroppedTextInNoLiveRow_andVacuumsInTheBackground(@TempDir Path temp)
            throws IOException, SQLException {
        PostgresMemoryWorkspace a = server("rows", temp.resolve("a"));
        alphaThenSecret(a, "secret quokka rows");
        assertThat(tablesHolding("secret quokka rows")).contains("tenant_workspace_files",
                "tenant_consolidation_files");
        long vacuumsBefore = backend.database().vacuums().requested();

        a.dropHistoryFrom("c2");

        assertThat(tablesHolding("secret quokka rows")).isEmpty();
        assertThat(tablesHolding("alpha")).contains("tenant_workspace_files", "tenant_consolidation_files");
        assertThat(backend.database().vacuums().requested()).isEqualTo(vacuumsBefore + 1);
    }

    @Test
    void anotherServersNextRefresh_servesTheRestoredFiles(@TempDir Path temp) throws IOException {
        PostgresMemoryWorkspace a = server("fleet", temp.resolve("a"));
        PostgresMemoryWorkspace b = server("fleet", temp.resolve("b"));
        alphaThenSecret(a, "secret quokka fleet");
        b.refresh();
        assertThat(b.root().resolve("MEMORY.md")).hasContent("alpha\nsecret quokka fleet");

        a.dropHistoryFrom("c2");
        b.refresh();

        assertThat(b.root().resolve("MEMORY.md")).hasContent("alpha");
        assertThat(b.root().resolve("skills/s/SKILL.md")).doesNotExist();
        assertThat(b.history()).extracting(Consolidation::id).containsExactly("c1");
        assertThat(b.diff().isEmpty()).isTrue();

        a.dropHistoryFrom("c1");
        b.refresh();

        assertThat(b.root().resolve("MEMORY.md")).doesNotExist();
        assertThat(b.history()).isEmpty();
    }

    @Test
    void drop_runsForTheHolderOfThePhase2Lock_andForNoOtherServerMeanwhile(@TempDir Path temp) throws IOException {
        Phase2Lock lock = new Phase2Lock();
        PostgresMemoryStore store = new PostgresMemoryStore(backend.database(), "locked", lock);
        PostgresMemoryWorkspace holder = new PostgresMemoryWorkspace(backend.database(), "locked", temp.resolve("a"),
                lock, Clock.systemUTC());
        holder.prepare();
        PostgresMemoryWorkspace other = server("locked", temp.resolve("b"));
        alphaThenSecret(holder, "secret quokka locked");
        JobClaim claim = store.tryClaimPhase2Job("server-a", Duration.ofHours(1), AT);
        assertThat(claim.isClaimed()).isTrue();

        assertThatThrownBy(() -> other.dropHistoryFrom("c2")).isInstanceOf(MemoryWorkspaceException.class)
                .hasMessageContaining("a consolidation holds the Phase 2 lock");
        assertThat(holder.dropHistoryFrom("c2")).map(ConsolidationRecord::id).contains("c1");

        assertThat(holder.root().resolve("MEMORY.md")).hasContent("alpha");
        assertThat(store.markPhase2Succeeded(claim.token(), claim.inputWatermark(), List.of(), AT)).isTrue();
        other.refresh();
        assertThat(other.root().resolve("MEMORY.md")).hasContent("alpha");
    }

    /** The tables of this test's schema (all tenants) whose live rows hold {@code text}. */
    private static List<String> tablesHolding(String text) throws SQLException {
        return DB.tablesHolding(SCHEMA, text);
    }
}
