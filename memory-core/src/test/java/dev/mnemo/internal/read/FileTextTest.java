package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file's text let go of once its rendering is kept, and read again when a new rendering needs it. */
class FileTextTest {

    @TempDir
    Path dir;

    @Test
    void release_thenText_readsTheFileAgain_strippedWhenItWasStripped() throws Exception {
        Path file = Files.writeString(dir.resolve("memory_summary.md"), "\n  - JDK 17 builds it.  \n");
        FileText read = FileText.read(file);
        FileText stripped = read.stripped();

        read.release();
        stripped.release();

        assertThat(read.text()).isEqualTo("\n  - JDK 17 builds it.  \n");
        assertThat(stripped.text()).isEqualTo("- JDK 17 builds it.");
        assertThat(stripped.sha256()).isEqualTo(read.sha256());
        assertThat(stripped.bytes()).isEqualTo(Files.size(file));
    }

    @Test
    void release_ofAFileGoneMeanwhile_leavesAnEmptyText() throws Exception {
        Path file = Files.writeString(dir.resolve("memory_summary.md"), "- JDK 17 builds it.\n");
        FileText read = FileText.read(file);
        read.release();
        Files.delete(file);

        assertThat(read.text()).isEmpty();
    }

    @Test
    void instructions_keepTheirRendering_andRenderAnotherAudienceFromTheFileReadAgain() throws Exception {
        Path root = Files.createDirectories(dir.resolve("memories"));
        Files.writeString(root.resolve("memory_summary.md"), "- The release checklist is docs/release.md.\n");
        // a wall clock ahead of the file's times, so its stamp is trusted at once (no racy window)
        DeveloperInstructions instructions = new DeveloperInstructions(root, MemoriesConfig.defaults(),
                Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1)));

        String forShell = instructions.build();
        String forTools = instructions.forTools();

        assertThat(forShell).contains("- The release checklist is docs/release.md.");
        assertThat(forTools).contains("- The release checklist is docs/release.md.").isNotEqualTo(forShell);
        assertThat(instructions.build()).isSameAs(forShell);
    }
}
