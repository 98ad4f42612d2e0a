package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * sqlite-jdbc loads a native library. From JDK 22 the JVM warns about that on every command unless
 * the jar grants native access, which {@code mnemo.jar}'s manifest does ({@code Enable-Native-Access},
 * ignored by JDK 17 and 21). A command that opens the SQLite store prints no JVM warning on the
 * JDK running the build, nor on JDK 25 where one is installed ({@code $MNEMO_JDK25}, else
 * Temurin's Debian folder); without one, that half is skipped, visibly.
 */
@Timeout(300)
class NativeAccessIT {

    @TempDir
    Path dir;

    @Test
    void theJarsManifest_grantsNativeAccess() throws Exception {
        try (JarFile jar = new JarFile(MnemoJar.jar().toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
        }
    }

    @Test
    void aCommandThatOpensTheStore_printsNoJvmWarning_onThisJdk() throws Exception {
        assertThat(statusStderr(MnemoJar.java())).doesNotContain("WARNING:");
    }

    @Test
    void aCommandThatOpensTheStore_printsNoJvmWarning_onJdk25() throws Exception {
        String home = System.getenv().getOrDefault("MNEMO_JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64");
        Path java = Path.of(home, "bin", "java");
        Assumptions.assumeTrue(Files.isExecutable(java), "no JDK 25 at " + home + " (set MNEMO_JDK25)");

        assertThat(statusStderr(java.toString())).doesNotContain("WARNING:");
    }

    /** {@code mnemo status} on a home with a state database, run by {@code java}: its standard error. */
    private String statusStderr(String java) throws Exception {
        Path home = dir.resolve("home-" + Math.abs(java.hashCode()));
        DemoSessions.install(home);
        run(List.of(java, "-jar", MnemoJar.jar().toString(), "--home", home.toString(), "threads", "--sync"));
        return run(List.of(java, "-jar", MnemoJar.jar().toString(), "--home", home.toString(), "status"));
    }

    private String run(List<String> command) throws Exception {
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        if (!process.waitFor(240, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("mnemo did not finish: " + command);
        }
        return Files.readString(err);
    }
}
