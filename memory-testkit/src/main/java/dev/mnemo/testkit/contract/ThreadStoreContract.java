package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The thread registry part of a {@link MemoryStore}: thread rows round-trip (the project too, none
 * reading as empty), list newest first, an upsert writes the project it is given, and a polluted
 * thread stays polluted whatever a later upsert says (only an explicit
 * {@link MemoryStore#setThreadMemoryMode} changes it back).
 *
 * <p>Part of {@link MemoryStoreContract}, which a store's test extends. A test double that keeps
 * only thread rows (and throws for the rest) may extend this part alone, providing
 * {@link #openStore(java.nio.file.Path)} and a {@link #dropOwnershipToken} that is never called here.
 */
public abstract class ThreadStoreContract extends MemoryStoreContractSupport {

    @Test
    void threads_roundTripEveryFieldAndListNewestFirst() {
        ThreadInfo full = ThreadInfo.builder("full")
                .rolloutPath(Path.of("/sessions/2026/05/31/rollout-full.jsonl"))
                .createdAt(Instant.parse("2026-05-31T08:00:00.123Z"))
                .updatedAt(Instant.parse("2026-05-31T09:30:00.456Z"))
                .source("vscode")
                .cwd(Path.of("/work/project"))
                .gitBranch("feature/x")
                .preview("make the tests pass")
                .memoryMode(MemoryMode.DISABLED)
                .archived(true)
                .project("acme/billing")
                .build();
        store.upsertThread(full);
        ThreadInfo bare = addThread("bare", Instant.parse("2026-05-31T10:00:00Z"));

        assertThat(store.thread("full")).contains(full);
        assertThat(store.thread("missing")).isEmpty();
        assertThat(store.threads()).containsExactly(bare, full);
    }

    @Test
    void upsertThread_keepsTheProject() {
        ThreadInfo billing = threadRow("a", NOW.minus(Duration.ofDays(1))).project("acme/billing").build();

        store.upsertThread(billing);

        assertThat(store.thread("a").orElseThrow().project()).contains("acme/billing");
        assertThat(store.threads()).containsExactly(billing);
    }

    @Test
    void upsertThread_withoutProject_readsEmpty() {
        addThread("a");

        assertThat(store.thread("a").orElseThrow().project()).isEmpty();
        assertThat(store.threads()).singleElement().satisfies(thread -> assertThat(thread.project()).isEmpty());
    }

    @Test
    void upsertThread_movesTheThreadToTheProjectItIsGiven_butNeverLoosensItsMode() {
        ThreadInfo billing = threadRow("a", NOW.minus(Duration.ofDays(1))).project("acme/billing").build();
        store.upsertThread(billing);
        store.setThreadMemoryMode("a", MemoryMode.DISABLED, NOW);

        ThreadInfo search = billing.toBuilder().project("acme/search").build();
        store.upsertThread(search);
        assertThat(store.thread("a")).contains(search.withMemoryMode(MemoryMode.DISABLED));

        store.upsertThread(search.toBuilder().project(null).build());
        assertThat(store.thread("a").orElseThrow().project()).as("left every project").isEmpty();
        assertThat(mode("a")).isEqualTo(MemoryMode.DISABLED);
    }

    @Test
    void upsertThread_neverTurnsAPollutedThreadBack() {
        addThread("a", NOW.minus(Duration.ofDays(2)));
        assertThat(store.markThreadPolluted("a", NOW)).isTrue();

        ThreadInfo later = threadRow("a", NOW.minus(Duration.ofDays(1))).preview("later").build();
        store.upsertThread(later);
        store.upsertThread(later.withMemoryMode(MemoryMode.DISABLED));

        assertThat(store.thread("a")).contains(later.withMemoryMode(MemoryMode.POLLUTED));
    }

    @Test
    void markThreadPolluted_reportsWhetherTheModeChanged() {
        addThread("a");

        assertThat(store.markThreadPolluted("missing", NOW)).isFalse();
        assertThat(store.markThreadPolluted("a", NOW)).isTrue();
        assertThat(store.markThreadPolluted("a", NOW)).as("already polluted").isFalse();
        assertThat(mode("a")).isEqualTo(MemoryMode.POLLUTED);
        assertThat(store.thread("missing")).isEmpty();
    }

    @Test
    void setThreadMemoryMode_changesOnlyTheModeOfAKnownThread() {
        ThreadInfo a = addThread("a");

        assertThat(store.setThreadMemoryMode("missing", MemoryMode.DISABLED, NOW)).isFalse();
        assertThat(store.setThreadMemoryMode("a", MemoryMode.DISABLED, NOW)).isTrue();

        assertThat(store.thread("a")).contains(a.withMemoryMode(MemoryMode.DISABLED));
        assertThat(store.thread("missing")).isEmpty();
        assertThat(store.setThreadMemoryMode("a", MemoryMode.ENABLED, NOW)).isTrue();
        assertThat(mode("a")).isEqualTo(MemoryMode.ENABLED);
    }
}
