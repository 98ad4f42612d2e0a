package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.Phase1Preview.Candidate;
import dev.mnemo.Phase1Preview.Verdict;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Stage1Claim;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoryStore#markThreadEnded}: a conversation the application ended is claimed by Phase 1
 * inside its idle window, while it is finished (ended at or after its last update,
 * {@link ThreadInfo#finished()}); every other gate of the claim still holds; an upsert never wipes
 * the mark; and the preview names the end as the reason.
 *
 * <p>One role's contract: a store that serves threads and Phase 1 claims extends it alone;
 * {@link MemoryStoreContract} runs it, with every other role, for a whole store. The fixtures'
 * claim waits {@code min_rollout_idle_hours = 12}.
 */
public abstract class ThreadEndStoreContract extends MemoryStoreContractSupport {

    /** Inside the fixtures' 12-hour idle window at {@link #NOW}. */
    private static final Instant RECENT = NOW.minus(Duration.ofHours(1));

    @Test
    void markThreadEnded_letsAThreadInsideItsIdleWindowBeClaimed() {
        addThread("ended", RECENT);
        addThread("still-talking", RECENT);
        Instant endedAt = RECENT.plusSeconds(30);

        assertThat(store.markThreadEnded("ended", endedAt)).isTrue();

        ThreadInfo ended = store.thread("ended").orElseThrow();
        assertThat(ended.endedAt()).contains(endedAt);
        assertThat(ended.finished()).isTrue();
        assertThat(store.thread("still-talking").orElseThrow().endedAt()).isEmpty();
        assertThat(claimedIds(NOW)).containsExactly("ended");
    }

    @Test
    void markThreadEnded_atTheMillisecondOfTheLastUpdate_finishesIt() {
        addThread("a", RECENT);

        store.markThreadEnded("a", RECENT);

        assertThat(store.thread("a").orElseThrow().finished()).isTrue();
        assertThat(claimedIds(NOW)).containsExactly("a");
    }

    @Test
    void markThreadEnded_ofUnknownThread_returnsFalse() {
        assertThat(store.markThreadEnded("missing", NOW)).isFalse();
        assertThat(store.thread("missing")).isEmpty();
    }

    @Test
    void aLineRecordedAfterTheEnd_putsTheThreadBackUnderTheIdleRule() {
        addThread("a", NOW.minus(Duration.ofHours(2)));
        store.markThreadEnded("a", NOW.minus(Duration.ofHours(2)));
        Instant continued = NOW.minus(Duration.ofMinutes(30));
        store.upsertThread(threadRow("a", continued).build());

        assertThat(store.thread("a").orElseThrow().finished()).isFalse();
        assertThat(claimedIds(NOW)).as("updated after its end, inside the idle window").isEmpty();
        assertThat(claimedIds(continued.plus(Duration.ofHours(12)))).as("idle long enough").containsExactly("a");
    }

    @Test
    void aConversationEndedAgainAfterContinuing_isClaimedAtOnce() {
        addThread("a", NOW.minus(Duration.ofHours(2)));
        store.markThreadEnded("a", NOW.minus(Duration.ofHours(2)));
        store.upsertThread(threadRow("a", RECENT).build());

        assertThat(store.markThreadEnded("a", RECENT.plusSeconds(1))).isTrue();

        assertThat(claimedIds(NOW)).containsExactly("a");
    }

    @Test
    void upsertThread_neitherWipesNorSetsTheEndMark() {
        addThread("scanned", RECENT);
        Instant endedAt = RECENT.plusSeconds(5);
        store.markThreadEnded("scanned", endedAt);

        store.upsertThread(threadRow("scanned", RECENT).preview("rescanned").build());
        store.upsertThread(threadRow("claims-an-end", RECENT).endedAt(RECENT.plusSeconds(9)).build());

        assertThat(store.thread("scanned").orElseThrow().endedAt()).as("a rollout scan keeps it").contains(endedAt);
        assertThat(store.thread("claims-an-end").orElseThrow().endedAt()).as("only markThreadEnded sets it")
                .isEmpty();
        assertThat(claimedIds(NOW)).containsExactly("scanned");
    }

    @Test
    void markThreadEnded_neverMovesTheMarkBack() {
        addThread("a", RECENT);
        Instant later = RECENT.plusSeconds(60);
        store.markThreadEnded("a", later);

        assertThat(store.markThreadEnded("a", RECENT.plusSeconds(1))).isTrue();

        assertThat(store.thread("a").orElseThrow().endedAt()).contains(later);
    }

    @Test
    void anEndedThread_passesOnlyTheIdleGate() {
        store.upsertThread(threadRow("ancient", NOW.minus(Duration.ofDays(45))).build());
        store.upsertThread(threadRow("off", RECENT).memoryMode(MemoryMode.DISABLED).build());
        store.upsertThread(threadRow("exec", RECENT).source("exec").build());
        store.upsertThread(threadRow("archived", RECENT).archived(true).build());
        store.upsertThread(threadRow("silent", RECENT).preview("").build());
        store.upsertThread(threadRow("current-thread", RECENT).build());
        addThread("extracted", RECENT);
        for (ThreadInfo thread : store.threads()) {
            store.markThreadEnded(thread.id(), NOW);
        }
        storeMemory("extracted", Instant.ofEpochSecond(RECENT.getEpochSecond()));

        assertThat(claimedIds(NOW)).isEmpty();
        assertThat(store.previewStage1Claims(claimParams(5_000, 8), NOW)).extracting(Candidate::verdict)
                .doesNotContain(Verdict.WOULD_CLAIM, Verdict.NOT_IDLE);
    }

    @Test
    void previewStage1Claims_namesTheEndAsTheReason() {
        addThread("ended", RECENT);
        store.markThreadEnded("ended", RECENT);
        addThread("continued", RECENT);
        store.markThreadEnded("continued", RECENT.minusSeconds(60));

        List<Candidate> preview = store.previewStage1Claims(claimParams(5_000, 8), NOW);

        Candidate ended = candidate(preview, "ended");
        assertThat(ended.verdict()).isEqualTo(Verdict.WOULD_CLAIM);
        assertThat(ended.detail()).contains("ended at " + RECENT).contains("min_rollout_idle_hours=12");
        Candidate continued = candidate(preview, "continued");
        assertThat(continued.verdict()).isEqualTo(Verdict.NOT_IDLE);
        assertThat(continued.detail()).contains("after it was ended at " + RECENT.minusSeconds(60));
        assertThat(claimedIds(NOW)).as("the claim acts as the preview said").containsExactly("ended");
    }

    private List<String> claimedIds(Instant now) {
        return store.claimStage1Jobs(claimParams(5_000, 8), now).stream().map(Stage1Claim::thread)
                .map(ThreadInfo::id).toList();
    }

    private static Candidate candidate(List<Candidate> preview, String threadId) {
        return preview.stream().filter(c -> c.thread().id().equals(threadId)).findFirst().orElseThrow();
    }
}
