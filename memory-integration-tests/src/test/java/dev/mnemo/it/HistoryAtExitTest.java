package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The message history's appends are written off the caller's thread, by a daemon thread; a JVM
 * that exits with its engine still open (a script that never closes it, {@code System.exit})
 * still writes every line it queued.
 */
class HistoryAtExitTest {

    private static final int CONVERSATIONS = 8;
    private static final int LINES_EACH = 250;

    @TempDir
    Path home;

    @Test
    void aJvmExitingWithItsEngineOpen_writesEveryHistoryLineItQueued() throws Exception {
        Path log = home.resolveSibling(home.getFileName() + "-exit-child.log");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
                HistoryExitChild.class.getName(), home.toString(), String.valueOf(CONVERSATIONS),
                String.valueOf(LINES_EACH))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child finishes").isTrue();
        assertThat(child.exitValue()).as(Files.readString(log)).isZero();

        List<String> history = Files.readAllLines(home.resolve("history.jsonl"), StandardCharsets.UTF_8);

        assertThat(history).hasSize(CONVERSATIONS * LINES_EACH);
        for (int c = 0; c < CONVERSATIONS; c++) {
            String last = "conversation " + c + ", message " + (LINES_EACH - 1) + " typed before the exit";
            assertThat(history).anySatisfy(line -> assertThat(line).contains(last));
        }
    }
}
