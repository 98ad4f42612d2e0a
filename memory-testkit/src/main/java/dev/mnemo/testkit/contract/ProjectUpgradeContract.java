package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store written before scoped memory (no project columns) and opened by a {@link MemoryStore}
 * that has them: its thread and memory read back as they were, with no project (global memory),
 * and what is written afterwards carries the project.
 *
 * <p>A store's schema-upgrade test extends this class and provides {@link #openUpgraded}: write,
 * with the store's previous schema, the thread {@link #THREAD_ID} and its memory from the
 * constants below, then open the store on that data (which migrates it).
 */
public abstract class ProjectUpgradeContract {

    /** The thread's creation and update time and its memory's version and generation time. */
    protected static final Instant WRITTEN_AT = Instant.parse("2026-06-01T12:00:00Z");
    /** The id of the thread written before projects existed. */
    protected static final String THREAD_ID = "old-thread";
    /** The preview of {@link #THREAD_ID}. */
    protected static final String PREVIEW = "hello from before projects";
    /** The raw memory of {@link #THREAD_ID}. */
    protected static final String RAW_MEMORY = "remembered before projects";
    /** The rollout summary of {@link #THREAD_ID}'s memory. */
    protected static final String ROLLOUT_SUMMARY = "a summary from before projects";

    private static final String PROJECT = "acme/billing";

    /** A temporary folder of each test, where the store is written and opened. */
    @TempDir
    protected Path dir;

    /**
     * Writes the thread {@link #THREAD_ID} (rollout path, times {@link #WRITTEN_AT}, source
     * {@code cli}, {@link #PREVIEW}) and its memory ({@link #RAW_MEMORY}, {@link #ROLLOUT_SUMMARY},
     * version and generation time {@link #WRITTEN_AT}) in the store's schema of before projects,
     * then opens the store on them; the test closes it.
     *
     * @param dir the folder to write the old store in
     * @return the store opened on the old data, upgraded by opening
     * @throws Exception if the old data cannot be written or the store cannot be opened
     */
    protected abstract MemoryStore openUpgraded(Path dir) throws Exception;

    @Test
    void upgradedStore_readsEarlierRowsAsGlobal_andNewWritesCarryTheProject() throws Exception {
        try (MemoryStore store = openUpgraded(dir)) {
            ThreadInfo thread = store.thread(THREAD_ID).orElseThrow();
            assertThat(thread.preview()).isEqualTo(PREVIEW);
            assertThat(thread.project()).isEmpty();
            Stage1Output memory = store.stage1Output(THREAD_ID).orElseThrow();
            assertThat(memory.result().rawMemory()).isEqualTo(RAW_MEMORY);
            assertThat(memory.sourceUpdatedAt()).isEqualTo(WRITTEN_AT);
            assertThat(memory.project()).isEmpty();
            assertThat(store.phase2InputSelection(10, 30, WRITTEN_AT)).singleElement()
                    .satisfies(selected -> assertThat(selected.project()).isEmpty());

            store.upsertThread(thread.toBuilder().project(PROJECT).build());
            Instant newer = WRITTEN_AT.plusSeconds(60);
            JobClaim claim = store.tryClaimStage1Job(THREAD_ID, "worker-1", newer, Duration.ofHours(1), 8, newer);
            assertThat(store.markStage1Succeeded(THREAD_ID, claim.token(), newer,
                    new Stage1Result("remembered in a project", "summary", Optional.empty()), newer)).isTrue();

            assertThat(store.thread(THREAD_ID).orElseThrow().project()).contains(PROJECT);
            assertThat(store.stage1Output(THREAD_ID).orElseThrow().project()).contains(PROJECT);
        }
    }
}
