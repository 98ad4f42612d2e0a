package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The packaged {@code target/mnemo.jar}, as integration tests start it: same JDK, child process. */
final class MnemoJar {

    private MnemoJar() {}

    static Path jar() {
        Path jar = Path.of(System.getProperty("basedir", ".")).resolve("target/mnemo.jar").toAbsolutePath();
        assertThat(jar).as("the shaded jar (built by `mvn package`)").isRegularFile();
        return jar;
    }

    static String java() {
        return Path.of(javaHome(), "bin", "java").toString();
    }

    /** The JDK running the tests, which also ran the build (the launcher's {@code JAVA_HOME}). */
    static String javaHome() {
        return System.getProperty("java.home");
    }

    /** {@code java -jar mnemo.jar --home HOME ARGS...}. */
    static List<String> command(Path home, String... args) {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", jar().toString(), "--home", home.toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** A home whose memory folder holds a summary and a handbook. */
    static Path homeWithMemories(Path dir) throws java.io.IOException {
        Path root = Files.createDirectories(dir.resolve("memories"));
        Files.writeString(root.resolve("memory_summary.md"), "v1\n# Summary\n- builds use gradle 8\n");
        Files.writeString(root.resolve("MEMORY.md"), "# Handbook\n\n## Build\n"
                + "- The project builds with gradle 8; run ./gradlew check before pushing.\n");
        Files.createDirectories(root.resolve("skills/release"));
        Files.writeString(root.resolve("skills/release/SKILL.md"), "# Release\nTag, then push the tag.\n");
        return dir;
    }
}
