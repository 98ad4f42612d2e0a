package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fixtures shared by the {@link MemoryStore} contract suites: a fresh store per test in a temp
 * folder, a fixed clock value {@link #NOW}, thread rows and shorthands for claims and completions.
 * Time is always passed explicitly; nothing sleeps.
 */
public abstract class MemoryStoreContractSupport {

    /** The tests' "now"; everything else is an offset from it. */
    protected static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    /** Stage-1 versions are written as {@code version(100)}: a base a day before NOW plus an offset. */
    protected static final long VERSION_BASE = NOW.getEpochSecond() - Duration.ofDays(1).toSeconds();
    /** The lease of every claim the tests make: one hour. */
    protected static final Duration LEASE = Duration.ofHours(1);
    /** The delay before a failed job may be retried: one hour. */
    protected static final Duration RETRY_DELAY = Duration.ofHours(1);
    /** The worker id the tests claim jobs as. */
    protected static final String WORKER = "worker-a";
    /** A second worker id, competing with {@link #WORKER}. */
    protected static final String OTHER_WORKER = "worker-b";
    /** The job kind of Phase 1 extraction jobs. */
    protected static final String STAGE1 = "memory_stage1";
    /** The job kind of the global Phase 2 consolidation job. */
    protected static final String PHASE2 = "memory_consolidate_global";
    /** The job key of the global Phase 2 job. */
    protected static final String GLOBAL = "global";

    /** A temporary folder of each test, where {@link #openStore} keeps the store. */
    @TempDir
    protected Path dir;

    /** The store under test, opened in {@link #dir} before each test and closed after it. */
    protected MemoryStore store;

    /**
     * Opens (creating when needed) the store kept in {@code dir}; calling it twice for the same
     * folder must give two handles on the same data.
     *
     * @param dir the folder the store keeps its data in
     * @return an open store, closed by the suite
     */
    protected abstract MemoryStore openStore(Path dir);

    /**
     * Sets the job's {@code ownership_token} to NULL behind the store's back, as a crashed or
     * buggy writer could leave it (Codex's test 39 does the same with SQL).
     *
     * @param store the store holding the job
     * @param kind the job's kind, such as {@link #STAGE1} or {@link #PHASE2}
     * @param jobKey the job's key: a thread id for Phase 1, {@link #GLOBAL} for Phase 2
     */
    protected abstract void dropOwnershipToken(MemoryStore store, String kind, String jobKey);

    @BeforeEach
    void openStoreUnderTest(TestInfo test) {
        if (runsInOwnClass(test)) {
            store = openStore(dir);
        }
    }

    @AfterEach
    void closeStoreUnderTest() {
        if (store != null) {
            store.close();
        }
    }

    /**
     * Whether {@code test} is this instance's own: a role contract nested in
     * {@link MemoryStoreContract} opens its own store, so the enclosing instance, whose callbacks
     * JUnit runs first, opens none for it.
     */
    boolean runsInOwnClass(TestInfo test) {
        return test.getTestClass().map(testClass -> testClass == getClass()).orElse(true);
    }

    /**
     * A Phase 1 source version: {@link #VERSION_BASE} plus {@code offset}.
     *
     * @param offset seconds after {@link #VERSION_BASE}
     * @return the version instant
     */
    protected static Instant version(long offset) {
        return Instant.ofEpochSecond(VERSION_BASE + offset);
    }

    /**
     * A thread row from the CLI, created an hour before {@code updatedAt}, with a rollout path and preview derived from {@code id}.
     *
     * @param id the thread's id
     * @param updatedAt when the thread was last updated
     * @return a builder for the row, to adjust before building
     */
    protected static ThreadInfo.Builder threadRow(String id, Instant updatedAt) {
        return ThreadInfo.builder(id)
                .rolloutPath(Path.of("/rollouts/rollout-" + id + ".jsonl"))
                .createdAt(updatedAt.minus(Duration.ofHours(1)))
                .updatedAt(updatedAt)
                .source("cli")
                .preview("fix the flaky build in " + id);
    }

    /**
     * Upserts an enabled, eligible thread updated at {@code updatedAt}.
     *
     * @param id the thread's id
     * @param updatedAt when the thread was last updated
     * @return the thread as upserted
     */
    protected ThreadInfo addThread(String id, Instant updatedAt) {
        ThreadInfo thread = threadRow(id, updatedAt).build();
        store.upsertThread(thread);
        return thread;
    }

    /**
     * Upserts an eligible thread that was idle long enough to be claimed at {@link #NOW}.
     *
     * @param id the thread's id
     * @return the thread as upserted, updated a day before {@link #NOW}
     */
    protected ThreadInfo addThread(String id) {
        return addThread(id, NOW.minus(Duration.ofDays(1)));
    }

    /**
     * A Phase 1 result whose raw memory and summary name {@code threadId}, without a slug.
     *
     * @param threadId the thread the result is for
     * @return the result
     */
    protected static Stage1Result result(String threadId) {
        return new Stage1Result("raw memory of " + threadId, "summary of " + threadId, Optional.empty());
    }

    /**
     * Tries to claim the Phase 1 job of {@code threadId} as {@link #WORKER}, with {@link #LEASE} and at most 64 running jobs.
     *
     * @param threadId the thread whose job to claim
     * @param version the source version to claim
     * @param now the time of the claim
     * @return the claim, whatever its outcome
     */
    protected JobClaim tryClaim(String threadId, Instant version, Instant now) {
        return store.tryClaimStage1Job(threadId, WORKER, version, LEASE, 64, now);
    }

    /**
     * Claims the Phase 1 job of {@code threadId} for {@code version}, asserting it worked.
     *
     * @param threadId the thread whose job to claim
     * @param version the source version to claim
     * @return the claim's ownership token
     */
    protected String claim(String threadId, Instant version) {
        JobClaim claim = tryClaim(threadId, version, NOW);
        assertThat(claim.outcome()).as("claim of %s at %s", threadId, version).isEqualTo(ClaimOutcome.CLAIMED);
        return claim.token();
    }

    /**
     * Stores a memory for the thread (creating the row when missing) through claim and success.
     *
     * @param threadId the thread the memory is for
     * @param version the source version claimed
     * @param generatedAt when the memory was generated
     */
    protected void storeMemory(String threadId, Instant version, Instant generatedAt) {
        storeMemory(threadId, version, generatedAt, false);
    }

    /**
     * {@link #storeMemory(String, Instant, Instant)}, awaiting approval when {@code awaitingApproval}
     * (through the six-argument {@link MemoryStore#markStage1Succeeded}; otherwise the five-argument one).
     *
     * @param threadId the thread the memory is for
     * @param version the source version claimed
     * @param generatedAt when the memory was generated
     * @param awaitingApproval whether the memory waits for the user's approval
     */
    protected void storeMemory(String threadId, Instant version, Instant generatedAt, boolean awaitingApproval) {
        if (store.thread(threadId).isEmpty()) {
            addThread(threadId);
        }
        String token = claim(threadId, version);
        boolean completed = awaitingApproval
                ? store.markStage1Succeeded(threadId, token, version, result(threadId), generatedAt, true)
                : store.markStage1Succeeded(threadId, token, version, result(threadId), generatedAt);
        assertThat(completed).as("Phase 1 completion of %s at %s", threadId, version).isTrue();
    }

    /**
     * {@link #storeMemory(String, Instant, Instant)} with the memory generated at {@link #NOW}.
     *
     * @param threadId the thread the memory is for
     * @param version the source version claimed
     */
    protected void storeMemory(String threadId, Instant version) {
        storeMemory(threadId, version, NOW);
    }

    /**
     * Runs a Phase 2 that selects exactly {@code selected} (the current versions), succeeding at {@code now}.
     *
     * @param now the time of the claim and of the success
     * @param selected the ids of the threads whose current outputs are selected
     */
    protected void consolidate(Instant now, String... selected) {
        JobClaim claim = store.tryClaimPhase2Job(WORKER, LEASE, now);
        assertThat(claim.outcome()).as("Phase 2 claim at %s", now).isEqualTo(ClaimOutcome.CLAIMED);
        List<SelectedInput> inputs = new ArrayList<>();
        for (String threadId : selected) {
            inputs.add(store.stage1Output(threadId).orElseThrow().snapshot());
        }
        assertThat(store.markPhase2Succeeded(claim.token(), claim.inputWatermark(), inputs, now)).isTrue();
    }

    /**
     * Fails three claims of {@code version} in a row at {@link #NOW}: its retries are spent.
     *
     * @param threadId the thread whose job fails
     * @param version the source version claimed each time
     */
    protected void failThreeTimes(String threadId, Instant version) {
        for (int attempt = 1; attempt <= 3; attempt++) {
            String token = claim(threadId, version);
            assertThat(store.markStage1Failed(threadId, token, "attempt " + attempt + " failed", Duration.ZERO, NOW))
                    .isTrue();
        }
    }

    /**
     * Startup claim parameters as {@link #WORKER}: current thread {@code current-thread}, sources {@code cli}, {@code vscode} and {@code app}, {@link #LEASE}.
     *
     * @param scanLimit how many threads the claim may scan
     * @param maxClaimed how many jobs it may claim
     * @return the parameters
     */
    protected Stage1ClaimParams claimParams(int scanLimit, int maxClaimed) {
        return new Stage1ClaimParams("current-thread", WORKER, scanLimit, maxClaimed, 30, 12,
                List.of("cli", "vscode", "app"), LEASE);
    }

    /**
     * How many jobs of {@code kind} are in {@code status}, as the store's status at {@link #NOW} reports.
     *
     * @param kind the job kind, such as {@link #STAGE1}
     * @param status the job status
     * @return the count; 0 if there is none
     */
    protected int jobCount(String kind, String status) {
        return store.status(NOW).jobCounts().getOrDefault(kind, Map.of()).getOrDefault(status, 0);
    }

    /**
     * The memory mode of a thread that exists.
     *
     * @param threadId the thread's id
     * @return its memory mode
     * @throws java.util.NoSuchElementException if the store has no such thread
     */
    protected MemoryMode mode(String threadId) {
        return store.thread(threadId).orElseThrow().memoryMode();
    }

    /**
     * The thread ids of {@code outputs}, in order.
     *
     * @param outputs Phase 1 outputs
     * @return their thread ids
     */
    protected List<String> ids(List<Stage1Output> outputs) {
        return outputs.stream().map(Stage1Output::threadId).toList();
    }

    /**
     * Runs {@code tasks} tasks at the same moment on separate threads and returns their results in order.
     *
     * @param <T> the type of a task's result
     * @param tasks how many tasks to run, each on its own thread
     * @param task the task, given its index from 0
     * @return the results, by index
     * @throws Exception if a task fails, is interrupted or takes more than 30 seconds
     */
    protected static <T> List<T> concurrently(int tasks, IntFunction<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        try {
            CountDownLatch ready = new CountDownLatch(tasks);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return task.apply(index);
                }));
            }
            ready.await();
            go.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(30, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
