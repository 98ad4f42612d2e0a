package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.Phase1Preview.Candidate;
import dev.mnemo.Phase1Preview.Verdict;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Stage1Claim;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoryStore#previewStage1Claims}: every thread gets the verdict the real claim would act
 * on, the threads it says would be claimed are exactly the ones a claim then takes, and the
 * preview itself changes nothing.
 *
 * <p>One role's contract: a store that serves this role extends it alone (its fixtures also write
 * thread rows); {@link MemoryStoreContract} runs it, with every other role, for a whole store.
 */
public abstract class Stage1PreviewStoreContract extends MemoryStoreContractSupport {

    @Test
    void previewStage1Claims_explainsEveryThreadFilteredOutByTheCandidateScan() {
        addThread("eligible");
        store.upsertThread(threadRow("busy", NOW.minus(Duration.ofHours(2))).build());
        store.upsertThread(threadRow("ancient", NOW.minus(Duration.ofDays(45))).build());
        store.upsertThread(threadRow("off", NOW.minus(Duration.ofDays(1))).memoryMode(MemoryMode.DISABLED).build());
        store.upsertThread(threadRow("exec", NOW.minus(Duration.ofDays(1))).source("exec").build());
        store.upsertThread(threadRow("archived", NOW.minus(Duration.ofDays(1))).archived(true).build());
        store.upsertThread(threadRow("silent", NOW.minus(Duration.ofDays(1))).preview("").build());
        store.upsertThread(threadRow("current-thread", NOW.minus(Duration.ofDays(1))).build());

        Map<String, Verdict> verdicts = verdicts(store.previewStage1Claims(claimParams(5_000, 8), NOW));

        assertThat(verdicts).containsExactlyInAnyOrderEntriesOf(Map.of(
                "eligible", Verdict.WOULD_CLAIM,
                "busy", Verdict.NOT_IDLE,
                "ancient", Verdict.TOO_OLD,
                "off", Verdict.MEMORY_MODE,
                "exec", Verdict.SOURCE_NOT_ALLOWED,
                "archived", Verdict.ARCHIVED,
                "silent", Verdict.NO_PREVIEW,
                "current-thread", Verdict.CURRENT_THREAD));
        assertThat(jobCount(STAGE1, "running")).as("a preview claims nothing").isZero();
    }

    @Test
    void previewStage1Claims_reportsJobStateAndTheClaimLimitAsTheClaimThenActs() {
        storeMemory("known", version(0));
        JobClaim other = store.tryClaimStage1Job(addThread("leased").id(), OTHER_WORKER,
                store.thread("leased").orElseThrow().updatedAt(), LEASE, 64, NOW);
        assertThat(other.isClaimed()).isTrue();
        addThread("failing");
        String token = claim("failing", version(0));
        assertThat(store.markStage1Failed("failing", token, "model error", RETRY_DELAY, NOW)).isTrue();
        addThread("newest", NOW.minus(Duration.ofHours(20)));
        addThread("second", NOW.minus(Duration.ofHours(22)));

        List<Candidate> preview = store.previewStage1Claims(claimParams(5_000, 2), NOW);

        assertThat(verdicts(preview)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "known", Verdict.UP_TO_DATE,
                "leased", Verdict.RUNNING,
                "failing", Verdict.RETRY_BACKOFF,
                "newest", Verdict.WOULD_CLAIM,
                "second", Verdict.OVER_CLAIM_LIMIT));
        List<Stage1Claim> claimed = store.claimStage1Jobs(claimParams(5_000, 2), NOW);
        assertThat(claimed).extracting(c -> c.thread().id()).containsExactly("newest");
    }

    @Test
    void previewStage1Claims_listsThreadsNewestFirstAndNamesTheWindowInItsDetail() {
        addThread("older", NOW.minus(Duration.ofDays(2)));
        addThread("recent", NOW.minus(Duration.ofHours(1)));

        List<Candidate> preview = store.previewStage1Claims(claimParams(5_000, 2), NOW);

        assertThat(preview).extracting(c -> c.thread().id()).containsExactly("recent", "older");
        assertThat(preview.get(0).detail()).contains("min_rollout_idle_hours=12")
                .contains(NOW.minus(Duration.ofHours(1)).plus(Duration.ofHours(12)).toString());
    }

    private static Map<String, Verdict> verdicts(List<Candidate> candidates) {
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        candidates.forEach(c -> verdicts.put(c.thread().id(), c.verdict()));
        return verdicts;
    }
}
