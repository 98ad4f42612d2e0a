package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an engine's cold start loads, read from a fresh JVM's class-loading log: opening an existing
 * home and building its instructions (what every agent's first turn does, and most of
 * {@code mnemo status}) needs neither Jackson's databind (the history file's mapper is made when a
 * history line is first read) nor the SQLite driver (a database whose header says its schema is
 * current is not connected to until the first query). Each was a large part of the cold start.
 */
class ColdStartClassesTest {

    @TempDir
    Path home;

    @Test
    void openingAnExistingHome_andBuildingInstructions_loadsNoJsonMapperAndNoDatabaseDriver() throws Exception {
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(home.resolve("memories/memory_summary.md"), "- The build needs JDK 17.\n");
        try (MemoryEngine engine = MemoryEngine.builder().home(home).build();
                RecordedSession session = engine.sessions().start(SessionContext.root("cold-start-thread"))) {
            session.userMessage("Why is the build flaky?");
            session.assistantMessage("A shared temp folder; isolate it per test.");
        }
        assertThat(home.resolve("mnemo.sqlite")).exists();
        assertThat(home.resolve("history.jsonl")).exists();

        List<String> loaded = classesLoadedUntilMark();

        assertThat(loaded).as("the log is read").contains("dev.mnemo.internal.read.DeveloperInstructions");
        assertThat(loaded).filteredOn(name -> name.startsWith("com.fasterxml.jackson.databind.")).isEmpty();
        assertThat(loaded).filteredOn(name -> name.startsWith("org.sqlite.")).isEmpty();
    }

    /** The classes the child loaded before it printed its mark, by name. */
    private List<String> classesLoadedUntilMark() throws IOException, InterruptedException {
        Path log = home.resolveSibling(home.getFileName() + "-child.log");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:stdout", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), ColdStartChild.class.getName(), home.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child finishes").isTrue();
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(String.join("\n", lines)).isZero();
        List<String> loaded = new ArrayList<>();
        for (String line : lines) {
            if (line.equals(ColdStartChild.MARK)) {
                return loaded;
            }
            int at = line.indexOf("[class,load] ");
            if (at >= 0) {
                String rest = line.substring(at + "[class,load] ".length());
                int space = rest.indexOf(' ');
                loaded.add(space < 0 ? rest : rest.substring(0, space));
            }
        }
        throw new AssertionError("the child never printed its mark:\n" + String.join("\n", lines));
    }
}
