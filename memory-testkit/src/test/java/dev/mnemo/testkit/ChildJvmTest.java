package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A child JVM started with this class path: its markers are seen, its death and its log reported. */
class ChildJvmTest {

    @TempDir
    Path dir;

    /** The child: writes {@code count} markers into a folder, prints a line, exits with {@code code}. */
    public static void main(String[] args) throws Exception {
        Path markers = Path.of(args[0]);
        Files.createDirectories(markers);
        for (int i = 0; i < Integer.parseInt(args[1]); i++) {
            Files.writeString(markers.resolve("done-" + i), "");
        }
        System.out.println("child wrote its markers");
        System.exit(Integer.parseInt(args[2]));
    }

    @Test
    void await_returnsOnceTheChildsMarkersAreThere() throws Exception {
        Path log = dir.resolve("child.log");
        Process child = ChildJvm.start(ChildJvmTest.class, log, dir.resolve("markers").toString(), "3", "0");

        ChildJvm.await("three markers", Duration.ofSeconds(60), child, log,
                () -> ChildJvm.markers(dir.resolve("markers"), "done-") == 3);

        assertThat(child.waitFor()).isZero();
        assertThat(Files.readString(log)).contains("child wrote its markers");
        assertThat(ChildJvm.markers(dir.resolve("missing"), "done-")).isZero();
    }

    @Test
    void await_failsWithTheChildsLogWhenItExitsFirst() throws Exception {
        Path log = dir.resolve("child.log");
        Process child = ChildJvm.start(ChildJvmTest.class, log, dir.resolve("markers").toString(), "1", "3");

        assertThatThrownBy(() -> ChildJvm.await("a marker it never writes", Duration.ofSeconds(60), child, log,
                () -> ChildJvm.markers(dir.resolve("markers"), "never-") > 0))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("child exited with 3 before a marker it never writes")
                .hasMessageContaining("child wrote its markers");
    }
}
