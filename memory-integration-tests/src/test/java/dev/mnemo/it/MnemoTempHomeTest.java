package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemorySession;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.testkit.MnemoTempHome;
import dev.mnemo.testkit.ScriptedLanguageModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The test kit's temp-home extension, as a user testing an agent offline would use it (real SQLite and git). */
class MnemoTempHomeTest {

    @RegisterExtension
    final MnemoTempHome mnemo = MnemoTempHome.builder()
            .model(ScriptedLanguageModel.builder()
                    .extractionReply("- tests run with ./gradlew test --offline", "ran the tests offline", "tests")
                    .chatReply("Run `./gradlew test --offline`.")
                    .build())
            .build();

    @Test
    void pastSession_isExtractedConsolidatedAndInjected_afterTheClockPassesTheIdleWindow() throws Exception {
        try (MemorySession past = mnemo.engine().openSession(SessionContext.root("chat-past"))) {
            past.startupTask().completion().join();
            past.userMessage("How do I run the tests? The network is blocked.");
            past.assistantMessage("Use `./gradlew test --offline`.");
        }
        mnemo.clock().advance(Duration.ofHours(7));

        try (MemorySession now = mnemo.engine().openSession(SessionContext.root("chat-now"))) {
            StartupReport report = now.startupTask().completion().join();

            assertThat(report.phase1().succeeded()).isEqualTo(1);
            assertThat(report.phase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(now.developerInstructions()).contains("MEMORY_SUMMARY BEGINS");
            assertThat(Files.readString(mnemo.home().resolve("memories/MEMORY.md"))).contains("gradlew test --offline");
        }
        assertThat(mnemo.model().extractionRequests()).hasSize(1);
        assertThat(mnemo.model().consolidationRequests()).isNotEmpty();
    }

    @Test
    void restart_keepsTheHomeAndEachTestStartsWithAnEmptyOne() throws Exception {
        Path home = mnemo.home();
        assertThat(home.resolve("memories/MEMORY.md")).doesNotExist();
        try (MemorySession session = mnemo.engine().openSession(SessionContext.root("chat-1"))) {
            session.userMessage("hello");
        }

        mnemo.restart();

        assertThat(mnemo.home()).isEqualTo(home);
        assertThat(mnemo.engine().threads().get("chat-1")).isPresent();
    }
}
