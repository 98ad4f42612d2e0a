package dev.mnemo.testkit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit under each JUnit line a user may have: a child JVM runs two of the kit's contracts through
 * the JUnit 5 and then the JUnit 6 Platform Launcher, on the kit's runtime class path as Maven
 * resolves it for a user plus that version's JUnit jars (all prepared by the build in
 * {@code target/junit-versions}). A kit that brought its own JUnit onto that path would mix two
 * versions and run nothing.
 */
class JUnitVersionsIT {

    private static final Path PREPARED = Path.of("target", "junit-versions");
    private static final List<String> CONTRACTS = List.of("dev.mnemo.testkit.contract.CodexRolloutSourceContractTest",
            DefaultAgentContractRun.class.getName());

    @TempDir
    Path temp;

    @Test
    void theKitsRuntimeClassPath_holdsNoJUnit() throws IOException {
        assertThat(kitRuntimeClassPath()).isNotEmpty().noneMatch(entry -> entry.contains("/org/junit/")
                || entry.contains("/org/opentest4j/") || entry.contains("/org/apiguardian/"));
    }

    @Test
    void theContractsRun_onJUnit5() throws Exception {
        String version = System.getProperty("mnemo.junit5.version", "5.14.4");

        String output = runOn("junit5");

        assertThat(output).contains("jupiter " + version).contains("failed=0 aborted=0")
                .doesNotContain("NoClassDefFoundError").containsPattern("found=[1-9]");
    }

    @Test
    void theContractsRun_onJUnit6() throws Exception {
        String version = System.getProperty("mnemo.junit6.version", "6.0.3");

        String output = runOn("junit6");

        assertThat(output).contains("jupiter " + version).contains("failed=0 aborted=0")
                .doesNotContain("NoClassDefFoundError").containsPattern("found=[1-9]");
    }

    /** Runs the contracts in a child JVM with {@code target/junit-versions/<junit>} as its JUnit; its output. */
    private String runOn(String junit) throws Exception {
        List<String> classPath = new ArrayList<>();
        classPath.add(Path.of("target", "test-classes").toAbsolutePath().toString());
        classPath.add(Path.of("target", "classes").toAbsolutePath().toString());
        // The kit's dependencies first, as for a user who declares the kit before JUnit: a JUnit jar among
        // them would then shadow the user's own version.
        classPath.addAll(kitRuntimeClassPath());
        try (Stream<Path> jars = Files.list(PREPARED.resolve(junit))) {
            jars.map(jar -> jar.toAbsolutePath().toString()).sorted().forEach(classPath::add);
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", String.join(File.pathSeparator, classPath),
                PlatformRun.class.getName()));
        command.addAll(CONTRACTS);
        Path log = temp.resolve(junit + ".log");
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!child.waitFor(3, TimeUnit.MINUTES)) { // a hung child, not a timing check
            child.destroyForcibly();
            throw new AssertionError("the " + junit + " run did not end:\n" + Files.readString(log));
        }
        String output = Files.readString(log);
        assertThat(child.exitValue()).as(output).isZero();
        return output;
    }

    private static List<String> kitRuntimeClassPath() throws IOException {
        String text = Files.readString(PREPARED.resolve("kit-runtime.classpath")).strip();
        return text.isEmpty() ? List.of() : List.of(text.split(File.pathSeparator));
    }
}
