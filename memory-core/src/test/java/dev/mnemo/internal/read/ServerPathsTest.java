package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerPathsTest {

    @TempDir
    Path home;

    @Test
    void memoryFilesBecomeRelative_andOtherHomePathsAPlaceholder() {
        Path root = home.resolve("memories");
        ServerPaths paths = new ServerPaths(root);

        String scrubbed = paths.scrub("see " + root + "/MEMORY.md and rollout_path: " + home
                + "/sessions/2026/11/01/rollout-x.jsonl (cwd: /work/project)");

        assertThat(scrubbed).isEqualTo("see MEMORY.md and rollout_path: <mnemo-home>/sessions/2026/11/01/rollout-x.jsonl"
                + " (cwd: /work/project)");
        assertThat(scrubbed).doesNotContain(home.toString());
    }

    @Test
    void aSiblingFolderWhoseNameStartsLikeTheHome_isLeftAlone() {
        ServerPaths paths = new ServerPaths(home.resolve("memories"));

        assertThat(paths.scrub("home " + home + "; backup " + home + "-old/x; logs " + home + "/logs"))
                .isEqualTo("home <mnemo-home>; backup " + home + "-old/x; logs <mnemo-home>/logs");
    }

    @Test
    void textWithoutThisMachinesPaths_isReturnedAsItIs() {
        ServerPaths paths = new ServerPaths(home.resolve("memories"));
        String text = "nothing of ours: /etc/hosts";

        assertThat(paths.scrub(text)).isSameAs(text);
    }

    @Test
    void theToolAudienceInstructions_nameNoPathOfThisMachine_evenWhenTheSummaryDoes() throws Exception {
        Path root = Files.createDirectories(home.resolve("memories"));
        Files.writeString(root.resolve("memory_summary.md"), "v1\n\n- build notes: see " + root
                + "/rollout_summaries/build.md (rollout_path: " + home + "/sessions/r.jsonl)\n");
        DeveloperInstructions instructions = new DeveloperInstructions(root,
                MemoriesConfig.builder().dedicatedTools(false).build());

        assertThat(instructions.forTools()).contains("rollout_summaries/build.md").doesNotContain(home.toString());
        assertThat(instructions.build()).as("the shell audience keeps them").contains(root.toString());
    }
}
