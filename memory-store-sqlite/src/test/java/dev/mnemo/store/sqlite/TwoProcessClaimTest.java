package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadInfo;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs share one database: this test's JVM and a second one started with
 * {@link ProcessBuilder}. Both claim Phase 1 jobs and the Phase 2 lock as fast as they can; no
 * job may be claimed twice and the lock may never have two holders.
 */
class TwoProcessClaimTest {

    private static final int THREADS = 240;

    @TempDir
    Path dir;

    @Test
    void twoProcesses_neverClaimTheSameJobTwiceNorHoldPhase2Together() throws Exception {
        Path dbFile = dir.resolve("mnemo.sqlite");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dbFile)) {
            for (int i = 0; i < THREADS; i++) {
                store.upsertThread(ThreadInfo.builder(String.format("thread-%03d", i))
                        .rolloutPath(Path.of("/rollouts/" + i + ".jsonl"))
                        .createdAt(ClaimWorker.NOW.minus(Duration.ofDays(2)))
                        .updatedAt(ClaimWorker.NOW.minus(Duration.ofDays(1)).minusSeconds(i))
                        .source("cli").preview("task " + i).build());
            }
        }
        Process child = startChild(dbFile);
        try {
            BufferedReader childOut = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertThat(childOut.readLine()).as("child start-up (see child.err)").isEqualTo("READY");
            Writer childIn = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
            childIn.write("go\n");
            childIn.flush();
            // The child claims first: a warm parent could otherwise claim every job before the
            // child's cold JVM makes its first claim, and the two would never compete.
            assertThat(childOut.readLine()).as("child's first pass (see child.err)").isEqualTo("FIRST PASS DONE");

            ClaimWorker.Report mine = ClaimWorker.run(dbFile, "parent", THREADS);
            List<String> childClaims = new ArrayList<>();
            int childHolds = -1;
            int childOverlaps = -1;
            for (String line = childOut.readLine(); line != null && !line.equals("END"); line = childOut.readLine()) {
                if (line.startsWith("S1 ")) {
                    childClaims.add(line.substring(3));
                } else if (line.startsWith("HOLDS ")) {
                    childHolds = Integer.parseInt(line.substring(6));
                } else if (line.startsWith("OVERLAPS ")) {
                    childOverlaps = Integer.parseInt(line.substring(9));
                }
            }
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child exits").isTrue();
            assertThat(child.exitValue()).as("child exit code (see %s)", dir.resolve("child.err")).isZero();

            List<String> all = new ArrayList<>(mine.claimedThreads());
            all.addAll(childClaims);
            Set<String> distinct = new HashSet<>(all);
            assertThat(all).as("claims across both processes").hasSize(THREADS).doesNotHaveDuplicates();
            assertThat(distinct).hasSize(THREADS);
            assertThat(mine.claimedThreads()).as("the parent took part").isNotEmpty();
            assertThat(childClaims).as("the child took part").isNotEmpty();
            assertThat(mine.overlaps() + childOverlaps).as("Phase 2 held by both at once").isZero();
            assertThat(mine.phase2Holds()).isPositive();
            assertThat(childHolds).isPositive();
        } finally {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
    }

    private Process startChild(Path dbFile) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ClaimWorker.class.getName(), dbFile.toString(), "child", Integer.toString(THREADS));
        builder.redirectError(Files.createFile(dir.resolve("child.err")).toFile());
        return builder.start();
    }
}
