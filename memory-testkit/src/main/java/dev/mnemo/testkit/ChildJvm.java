package dev.mnemo.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * A second process for tests that need one: another engine opening the same home, a fleet member
 * sharing a database. {@link #start} runs a {@code main} class in a new JVM with this JVM's class
 * path, small and quick to start (256 MB heap, the C1 compiler only, warnings-only logging), its
 * output collected in a log file; {@link #await} polls for what the test waits on and, when the
 * child dies or the time runs out, fails with the child's log in the message. A child can report
 * how far it got by writing marker files, counted with {@link #markers}.
 */
public final class ChildJvm {

    /** How often {@link #await} checks its condition. */
    private static final long POLL_MILLIS = 20;

    private ChildJvm() {
    }

    /**
     * Starts {@code mainClass} with {@code args} in a new JVM; standard output and error go to {@code log}.
     *
     * @param mainClass the class whose {@code main} the child runs; on this JVM's class path
     * @param log the file the child's output and errors are written to; replaced if it exists
     * @param args the arguments passed to {@code main}
     * @return the running child process
     * @throws IOException if the process cannot be started or the log cannot be opened
     */
    public static Process start(Class<?> mainClass, Path log, String... args) throws IOException {
        Objects.requireNonNull(mainClass, "mainClass");
        Objects.requireNonNull(log, "log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /**
     * Returns once {@code condition} holds, checked every 20 ms; fails with {@code log}'s content when
     * {@code process} exits first or {@code timeout} passes (then the child is killed).
     *
     * @param what what the test waits for, named in the failure message
     * @param timeout how long to wait at most
     * @param process the child started with {@link #start}
     * @param log the child's log file, quoted in the failure message
     * @param condition the condition to wait for; checked in this thread
     * @throws AssertionError if the child exits or the time runs out before the condition holds
     * @throws IOException if the log cannot be read for the failure message
     * @throws InterruptedException if this thread is interrupted while waiting
     */
    public static void await(String what, Duration timeout, Process process, Path log, BooleanSupplier condition)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (!process.isAlive()) {
                throw new AssertionError("child exited with " + process.exitValue() + " before " + what + ":\n"
                        + Files.readString(log));
            }
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new AssertionError("timed out waiting for " + what + ":\n" + Files.readString(log));
            }
            Thread.sleep(POLL_MILLIS); // polling another process, not waiting for time to pass
        }
    }

    /**
     * The files in {@code dir} whose names start with {@code prefix}: 0 while the folder does not exist or cannot be read.
     *
     * @param dir the folder the child writes its marker files in
     * @param prefix the start of the marker files' names
     * @return how many marker files there are
     */
    public static long markers(Path dir, String prefix) {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)).count();
        } catch (IOException e) {
            return 0;
        }
    }
}
