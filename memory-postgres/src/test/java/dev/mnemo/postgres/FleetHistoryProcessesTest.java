package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.HistoryEntry;
import dev.mnemo.spi.HistoryStore;
import dev.mnemo.testkit.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two application servers as separate JVMs appending to one tenant's message history at once
 * ({@link FleetChild} {@code history-append}): no line is lost, and with {@code max_bytes} every
 * trim keeps the newest lines within the cap, each server's surviving lines a suffix of its own.
 */
class FleetHistoryProcessesTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final String SCHEMA = "history_processes";
    private static final int LINES_PER_SERVER = 150;
    private static PostgresBackend backend;

    @TempDir
    Path tmp;

    @BeforeAll
    static void migrate() {
        backend = DB.backend(SCHEMA);
    }

    /** Runs two appending children on {@code tenant} from one start signal; the lines each kept, by server. */
    private Map<String, List<Integer>> appendFromTwoJvms(String tenant, long maxBytes) throws Exception {
        Path markers = tmp.resolve(tenant);
        List<Process> children = new ArrayList<>();
        for (String server : List.of("s1", "s2")) {
            children.add(ChildJvm.start(FleetChild.class, tmp.resolve(tenant + "-" + server + ".log"), "history-append",
                    DB.jdbcUrl(), SCHEMA, tenant, tmp.resolve(server).toString(), "0", markers.toString(),
                    Integer.toString(LINES_PER_SERVER), Long.toString(maxBytes)));
        }
        ChildJvm.await("both children ready", Duration.ofSeconds(90), children.get(0), tmp.resolve(tenant + "-s1.log"),
                () -> ChildJvm.markers(markers, "ready-") == 2);
        Files.writeString(markers.resolve("go"), "");
        for (int i = 0; i < children.size(); i++) {
            Process child = children.get(i);
            Path log = tmp.resolve(tenant + "-s" + (i + 1) + ".log");
            ChildJvm.await("child " + (i + 1) + " to finish", Duration.ofSeconds(120), child, log, () -> !child.isAlive());
            assertThat(child.exitValue()).as(Files.readString(log)).isZero();
        }
        assertThat(ChildJvm.markers(markers, "appended-")).isEqualTo(2);
        Map<String, List<Integer>> kept = new TreeMap<>();
        for (HistoryEntry entry : history(tenant).recent(Integer.MAX_VALUE)) {
            String[] parts = entry.text().split(" ");
            assertThat(entry.sessionId()).isEqualTo("server-" + parts[0]);
            kept.computeIfAbsent(parts[0], pid -> new ArrayList<>()).add(Integer.parseInt(parts[1]));
        }
        return kept;
    }

    private static HistoryStore history(String tenant) {
        return backend.store(tenant).messageHistory().orElseThrow();
    }

    private static long keptBytes(String tenant) {
        return history(tenant).recent(Integer.MAX_VALUE).stream().mapToLong(entry -> HistoryStore
                .jsonLine(entry.sessionId(), entry.ts(), entry.text()).getBytes(StandardCharsets.UTF_8).length).sum();
    }

    @Test
    void twoJvmsAppendingToOneTenant_loseNoLine_andKeepEachServersOrder() throws Exception {
        Map<String, List<Integer>> kept = appendFromTwoJvms("uncapped", 0);

        List<Integer> all = IntStream.range(0, LINES_PER_SERVER).boxed().toList();
        assertThat(kept).hasSize(2);
        assertThat(kept.values()).allSatisfy(lines -> assertThat(lines).containsExactlyElementsOf(all));
    }

    @Test
    void twoJvmsAppendingUnderMaxBytes_keepTheNewestLinesWithinTheCap() throws Exception {
        long maxBytes = 2_000;
        Map<String, List<Integer>> kept = appendFromTwoJvms("capped", maxBytes);

        assertThat(keptBytes("capped")).isLessThanOrEqualTo(maxBytes);
        // Trims drop the oldest lines of all, so each server's surviving lines are the newest of its own,
        // and the newest line of all (the last line of one of them) is never dropped.
        assertThat(kept.values()).allSatisfy(lines -> assertThat(lines).containsExactlyElementsOf(
                IntStream.range(LINES_PER_SERVER - lines.size(), LINES_PER_SERVER).boxed().toList()));
        assertThat(kept.values().stream().flatMap(List::stream).collect(Collectors.toSet()))
                .contains(LINES_PER_SERVER - 1);
        List<HistoryEntry> recent = history("capped").recent(Integer.MAX_VALUE);
        assertThat(recent).extracting(HistoryEntry::offset).isSorted();
        assertThat(recent.size()).isGreaterThan(10);
    }
}
