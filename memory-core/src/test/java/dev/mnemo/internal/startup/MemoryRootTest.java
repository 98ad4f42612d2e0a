package dev.mnemo.internal.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryRootTest {

    @TempDir
    Path root;

    @Test
    void prepare_seedsTheAdHocInstructionsAndLeavesNoTemporaryFile() throws Exception {
        MemoryRoot.prepare(root);

        Path adHoc = root.resolve("extensions/ad_hoc");
        assertThat(adHoc.resolve("instructions.md")).hasContent(MemoryRoot.AD_HOC_INSTRUCTIONS);
        try (Stream<Path> files = Files.list(adHoc)) {
            assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("instructions.md");
        }
    }

    @Test
    void prepare_neverOverwritesEditedInstructions() throws Exception {
        Path instructions = Files.createDirectories(root.resolve("extensions/ad_hoc")).resolve("instructions.md");
        Files.writeString(instructions, "my own rules\n");

        MemoryRoot.prepare(root);

        assertThat(instructions).hasContent("my own rules");
    }
}
