package dev.mnemo.postgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Starts {@link FleetChild} in a new JVM with this test's class path, and waits on it (bounded polling). */
final class Children {

    private Children() {
    }

    static Process start(Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), FleetChild.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Waits until {@code condition} holds (checked every 20 ms) or fails after {@code timeout}. */
    static void await(String what, Duration timeout, Process process, Path log, BooleanSupplier condition)
            throws Exception {
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
            Thread.sleep(20); // polling a child process, not waiting for time to pass
        }
    }

    static long countFiles(Path dir, String prefix) {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)).count();
        } catch (IOException e) {
            return 0;
        }
    }
}
