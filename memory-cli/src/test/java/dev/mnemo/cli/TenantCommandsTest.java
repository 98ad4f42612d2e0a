package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.postgres.TestCluster;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code mnemo threads}, {@code logs} and {@code inputs} with {@code --postgres URL --tenant ID},
 * against a throwaway PostgreSQL cluster holding two tenants.
 */
class TenantCommandsTest {

    private static String url;

    @TempDir
    static Path caches;

    @TempDir
    Path temp;

    /** Alice: lead spawned helper (open) and an ephemeral sub-agent (closed). Bob: one thread, one child. */
    @BeforeAll
    static void twoTenants() throws Exception {
        url = TestCluster.get().createDatabase("cli_tenants_" + ProcessHandle.current().pid());
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(url);
        try (PostgresBackend backend = PostgresBackend.builder().dataSource(dataSource).build()) {
            try (MemoryEngine alice = backend.engineBuilder("alice", caches.resolve("alice")).build()) {
                record(alice, "lead");
                record(alice, "helper");
                alice.agentGraph().upsertSpawnEdge("lead", "helper", SpawnEdgeStatus.OPEN);
                alice.agentGraph().upsertSpawnEdge("lead", "ephemeral-1", SpawnEdgeStatus.CLOSED);
                alice.threadLogs().append(new ThreadLogEntry("lead", Instant.now(), "WARN", "app::agent",
                        "lead <b>finished</b>"));
                alice.threadLogs().flush();
            }
            try (MemoryEngine bob = backend.engineBuilder("bob", caches.resolve("bob")).build()) {
                record(bob, "bob-chat");
                bob.agentGraph().upsertSpawnEdge("bob-chat", "bob-helper", SpawnEdgeStatus.OPEN);
            }
        }
    }

    private static void record(MemoryEngine engine, String threadId) {
        try (RecordedSession session = engine.sessions().start(SessionContext.root(threadId))) {
            session.userMessage("work on " + threadId + " with key sk-abcdefghijklmnopqrstuvwxyz123456");
        }
    }

    private MnemoCliTest.Result mnemo(String... args) {
        return MnemoCliTest.run(temp, null, args);
    }

    @Test
    void threadsTree_showsTheTenantsSpawnGraph_andNoOtherTenants() {
        MnemoCliTest.Result tree = mnemo("threads", "--tree", "--postgres", url, "--tenant", "alice");
        MnemoCliTest.Result json = mnemo("threads", "--tree", "--json", "--postgres", url, "--tenant", "alice");

        assertThat(tree.exitCode()).as(tree.err()).isZero();
        assertThat(tree.out().lines().toList()).containsExactly(
                "lead  enabled app",
                "   └─ [closed] ephemeral-1  (no thread row)",
                "   └─ [open] helper  enabled app");
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.out().replaceAll("\\s+", " ")).contains("\"id\" : \"lead\"")
                .contains("\"id\" : \"helper\", \"status\" : \"open\"").doesNotContain("bob");
    }

    @Test
    void threads_listsTheTenantsThreadsOnly() {
        MnemoCliTest.Result list = mnemo("threads", "--postgres", url, "--tenant", "bob");

        assertThat(list.exitCode()).as(list.err()).isZero();
        assertThat(list.out()).contains("bob-chat").doesNotContain("lead").doesNotContain("helper ");
    }

    @Test
    void logs_ofATenant_readItsStore_andNoOtherTenants() {
        MnemoCliTest.Result logs = mnemo("logs", "--thread", "lead", "--postgres", url, "--tenant", "alice");
        MnemoCliTest.Result bobs = mnemo("logs", "--level", "warn", "--postgres", url, "--tenant", "bob");

        assertThat(logs.exitCode()).as(logs.err()).isZero();
        assertThat(logs.out()).contains("WARN", "lead", "app::agent", "lead <b>finished</b>");
        assertThat(bobs.exitCode()).as(bobs.err()).isZero();
        assertThat(bobs.out()).doesNotContain("lead").contains("no log entries match");
    }

    @Test
    void inputs_ofATenant_listAndSearchItsMessages_redacted() {
        MnemoCliTest.Result inputs = mnemo("inputs", "--postgres", url, "--tenant", "alice");
        MnemoCliTest.Result search = mnemo("inputs", "--search", "HELPER", "--postgres", url, "--tenant", "alice");

        assertThat(inputs.exitCode()).as(inputs.err()).isZero();
        assertThat(inputs.out()).contains("work on lead", "work on helper").doesNotContain("bob-chat")
                .doesNotContain("sk-abcdefghijklmnopqrstuvwxyz123456");
        assertThat(search.exitCode()).as(search.err()).isZero();
        assertThat(search.out()).contains("work on helper").doesNotContain("work on lead");
    }

    @Test
    void postgresWithoutATenant_isAUsageError_forEveryCommandThatTakesIt() {
        for (String command : new String[] {"threads", "logs", "inputs"}) {
            MnemoCliTest.Result r = mnemo(command, "--postgres", url);

            assertThat(r.exitCode()).as(command).isEqualTo(2);
            assertThat(r.err()).as(command).contains("--postgres and --tenant go together");
        }
    }
}
