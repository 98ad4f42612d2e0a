package dev.mnemo.store.sqlite;

import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Result;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One worker of the two-process test: claims Phase 1 jobs until every thread is done, trying the
 * Phase 2 lock between passes (and after them, until it has held it once). While it holds the lock it owns a marker file created with
 * CREATE_NEW, so two holders at once show up as {@code OVERLAP}. Run in-process by the test and
 * as {@code main} in a second JVM, which waits for a line on stdin before it starts.
 */
final class ClaimWorker {

    static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    static final Duration LEASE = Duration.ofHours(1);
    private static final int MAX_RUNNING = 8;

    /** What one worker saw. */
    record Report(List<String> claimedThreads, int phase2Holds, int overlaps) {
    }

    private ClaimWorker() {
    }

    static Report run(Path dbFile, String workerId, int totalThreads) throws IOException {
        return run(dbFile, workerId, totalThreads, () -> { });
    }

    /** @param afterFirstPass runs once, after the worker's first claim pass */
    static Report run(Path dbFile, String workerId, int totalThreads, Runnable afterFirstPass) throws IOException {
        List<String> claimed = new ArrayList<>();
        int holds = 0;
        int overlaps = 0;
        Path marker = dbFile.resolveSibling("phase2-holder");
        Stage1ClaimParams params = new Stage1ClaimParams("none", workerId, 5_000, MAX_RUNNING, 30, 6,
                List.of("cli"), LEASE);
        long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
        boolean firstPass = true;
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dbFile)) {
            // After the last job, a worker that never got the Phase 2 lock keeps trying for it: how the
            // two processes interleave decides who gets it while jobs remain, and both must hold it.
            while ((doneJobs(store) < totalThreads || holds == 0) && System.nanoTime() < deadline) {
                for (Stage1Claim claim : store.claimStage1Jobs(params, NOW)) {
                    claimed.add(claim.thread().id());
                    store.markStage1Succeeded(claim.thread().id(), claim.ownershipToken(), claim.sourceUpdatedAt(),
                            new Stage1Result("memory", "summary", Optional.empty()), NOW);
                }
                if (firstPass) {
                    afterFirstPass.run();
                    firstPass = false;
                }
                JobClaim phase2 = store.tryClaimPhase2Job(workerId, LEASE, NOW);
                if (phase2.isClaimed()) {
                    holds++;
                    try {
                        Files.createFile(marker);
                        store.heartbeatPhase2Job(phase2.token(), LEASE, NOW);
                        Files.delete(marker);
                    } catch (FileAlreadyExistsException e) {
                        overlaps++;
                    }
                    // failing with no delay releases the lock without the success cooldown
                    store.markPhase2Failed(phase2.token(), "test release", Duration.ZERO, NOW);
                }
            }
        }
        return new Report(claimed, holds, overlaps);
    }

    private static int doneJobs(SqliteMemoryStore store) {
        return store.status(NOW).jobCounts().get(JobKinds.STAGE1).getOrDefault(JobKinds.DONE, 0);
    }

    /**
     * {@code <dbFile> <workerId> <totalThreads>}; prints READY, waits for a line, works (printing
     * FIRST PASS DONE after its first claim pass), prints the report.
     */
    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Path dbFile = Path.of(args[0]);
        try (SqliteMemoryStore warmUp = SqliteMemoryStore.open(dbFile)) {
            warmUp.status(NOW);
        }
        out.println("READY");
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        Report report = run(dbFile, args[1], Integer.parseInt(args[2]), () -> out.println("FIRST PASS DONE"));
        report.claimedThreads().forEach(id -> out.println("S1 " + id));
        out.println("HOLDS " + report.phase2Holds());
        out.println("OVERLAPS " + report.overlaps());
        out.println("END");
    }
}
