package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.SessionContext;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.SessionStore;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Rollouts written line by line into PostgreSQL and streamed back, per tenant. */
class PostgresSessionStoreTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("sessions_test");
    }

    private SessionStore store(String tenant) {
        return new PostgresSessionStore(backend.database(), PostgresBackend.tenantKey(tenant));
    }

    private static ThreadInfo thread(String id, SessionStore.Writer writer) {
        return ThreadInfo.builder(id).rolloutPath(writer.rolloutPath()).createdAt(NOW).updatedAt(NOW).source("app")
                .build();
    }

    private static String readAll(SessionStore store, ThreadInfo thread) throws Exception {
        try (InputStream in = store.open(thread)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void appendedLines_streamBackInOrder_andAContinuedRolloutKeepsThem() throws Exception {
        SessionStore store = store("alice");
        SessionStore.Writer writer = store.startOrContinue(SessionContext.root("t1"), Optional.empty(), NOW);
        assertThat(writer.continued()).isFalse();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 600; i++) { // more than one fetch page
            String line = "{\"n\":" + i + ",\"text\":\"é" + "x".repeat(i % 50) + "\"}\n";
            writer.append(line.getBytes(StandardCharsets.UTF_8));
            expected.append(line);
        }
        ThreadInfo thread = thread("t1", writer);

        assertThat(store.holds(thread)).isTrue();
        assertThat(readAll(store, thread)).isEqualTo(expected.toString());

        SessionStore.Writer again = store.startOrContinue(SessionContext.root("t1"), Optional.of(thread), NOW);
        assertThat(again.continued()).isTrue();
        again.append("{\"more\":1}\n".getBytes(StandardCharsets.UTF_8));
        assertThat(readAll(store, thread)).endsWith("{\"more\":1}\n").startsWith(expected.toString());
    }

    @Test
    void anotherTenant_neitherHoldsNorReadsNorDeletesTheRollout() throws Exception {
        SessionStore alice = store("alice-2");
        SessionStore mallory = store("mallory");
        SessionStore.Writer writer = alice.startOrContinue(SessionContext.root("shared-id"), Optional.empty(), NOW);
        writer.append("{\"secret\":\"alice's\"}\n".getBytes(StandardCharsets.UTF_8));
        ThreadInfo thread = thread("shared-id", writer);

        assertThat(mallory.holds(thread)).isFalse();
        assertThat(readAll(mallory, thread)).isEmpty();
        assertThat(mallory.delete(thread)).isFalse();
        assertThat(readAll(alice, thread)).contains("alice's");
    }

    @Test
    void delete_removesEveryLine() throws Exception {
        SessionStore store = store("bob");
        SessionStore.Writer writer = store.startOrContinue(SessionContext.root("gone"), Optional.empty(), NOW);
        writer.append("{\"a\":1}\n".getBytes(StandardCharsets.UTF_8));
        ThreadInfo thread = thread("gone", writer);

        assertThat(store.delete(thread)).isTrue();

        assertThat(store.holds(thread)).isFalse();
        assertThat(readAll(store, thread)).isEmpty();
    }

    @Test
    void aRolloutPathThatIsNotThisThreadsLocator_isNotHeld() {
        ThreadInfo file = ThreadInfo.builder("t9").rolloutPath(java.nio.file.Path.of("/tmp/rollout.jsonl"))
                .createdAt(NOW).updatedAt(NOW).source("cli").build();

        assertThat(store("carol").holds(file)).isFalse();
    }
}
