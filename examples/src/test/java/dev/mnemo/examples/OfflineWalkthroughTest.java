package dev.mnemo.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mnemo.Phase2Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the offline walkthrough end to end on a real home (SQLite + git) in a temp folder. */
class OfflineWalkthroughTest {

    @TempDir
    Path home;

    @Test
    void walkthrough_extractsConsolidatesInjectsAndRecordsTheCitationAsUse() throws Exception {
        OfflineWalkthrough.Result r = OfflineWalkthrough.run(home);

        assertThat(r.startup().skipped()).isEmpty();
        assertThat(r.startup().phase1().succeeded()).isEqualTo(1);
        assertThat(r.startup().phase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
        assertThat(r.startup().phase2().inputs()).isEqualTo(1);
        assertThat(Files.readString(home.resolve("memories/memory_summary.md"))).startsWith("v1\n");
        assertThat(r.instructions()).contains(OfflineWalkthrough.SUMMARY_LINE)
                .contains("MEMORY_SUMMARY BEGINS");
        assertThat(r.answer().visibleText().strip()).isEqualTo("Run `./gradlew test --offline`.")
                .doesNotContain("oai-mem-citation");
        assertThat(r.answer().citation()).isPresent();
        assertThat(r.answer().usageRecorded()).isEqualTo(1);
        assertThat(r.scriptedModelCalls()).isEqualTo(4);
    }

    @Test
    void quickstartMain_withoutModel_printsWhatToSet() throws Exception {
        assumeTrue(System.getenv("MNEMO_MODEL") == null,
                "MNEMO_MODEL is set: main would start a real chat instead of explaining what to set");
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            QuickstartAgent.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).contains("MNEMO_MODEL", "OPENAI_API_KEY",
                "OPENAI_BASE_URL", "OfflineWalkthrough");
    }
}
