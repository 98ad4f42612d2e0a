package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.postgres.TestCluster;
import java.nio.file.Path;
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
            }
            try (MemoryEngine bob = backend.engineBuilder("bob", caches.resolve("bob")).build()) {
                record(bob, "bob-chat");
                bob.agentGraph().upsertSpawnEdge("bob-chat", "bob-helper", SpawnEdgeStatus.OPEN);
            }
        }
    }

    private static void record(MemoryEngine engine, String threadId) {
        try (RecordedSession session = engine.sessions().start(SessionContext.root(threadId))) {
            session.userMessage("work on " + threadId);
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

    /**
     * memory-postgres keeps no thread logs yet: the tenant's engine says why, and the CLI prints
     * that on stderr and exits 1. Flips to listing the entries once PostgreSQL keeps them.
     */
    @Test
    void logs_ofATenant_failsWithTheEnginesReason_andNoStackTrace() {
        MnemoCliTest.Result logs = mnemo("logs", "--thread", "lead", "--postgres", url, "--tenant", "alice");

        assertThat(logs.exitCode()).isEqualTo(1);
        assertThat(logs.out()).isEmpty();
        assertThat(logs.err()).startsWith("mnemo: no thread logs for tenant alice: this engine keeps no thread logs")
                .doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("-v for details");
    }

    /**
     * memory-postgres keeps no message history yet (a tenant's engine writes it into its own local
     * cache): the CLI says so on stderr and exits 1. Flips once PostgreSQL keeps the history.
     */
    @Test
    void inputs_ofATenant_failsWithTheReason_andNoStackTrace() {
        MnemoCliTest.Result inputs = mnemo("inputs", "--postgres", url, "--tenant", "alice");

        assertThat(inputs.exitCode()).isEqualTo(1);
        assertThat(inputs.out()).isEmpty();
        assertThat(inputs.err()).startsWith("mnemo: no message history to show: the message history of a PostgreSQL"
                + " tenant is not kept in PostgreSQL yet").doesNotContain("Exception").doesNotContain("\tat ");
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
