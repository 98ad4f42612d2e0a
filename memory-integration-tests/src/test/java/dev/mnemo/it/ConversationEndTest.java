package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemorySession;
import dev.mnemo.Phase1Preview;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conversation the application ends ({@link MemorySession#end()},
 * {@code MemoryEngine.closeConversation}) is extracted by the next startup task at once, over a real
 * SQLite store, with the engine's clock never moved; one that is merely quiet waits for
 * {@code min_rollout_idle_hours}, as in Codex.
 */
class ConversationEndTest {

    @TempDir
    Path home;

    /** Records one exchange in a session opened with {@code openSession} and returns it, still open. */
    private static MemorySession talk(Pipeline p, String id, String text) throws Exception {
        MemorySession session = p.engine.openSession(SessionContext.root(id));
        session.startupTask().completion().get(30, TimeUnit.SECONDS); // its own run sees nothing to do
        session.userMessage(text);
        session.assistantMessage("Done: " + text);
        return session;
    }

    private static StartupReport nextStartupTask(Pipeline p) throws Exception {
        return p.engine.startStartupTask(SessionContext.root("current-thread")).completion().get(30, TimeUnit.SECONDS);
    }

    @Test
    void end_makesTheNextStartupTaskExtractTheConversationAtOnce() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            String id = Pipeline.uuidV7(p.clock.instant());
            try (MemorySession session = talk(p, id, "set up the build")) {
                session.end();
                session.end(); // idempotent
            }

            StartupReport report = nextStartupTask(p);

            assertThat(report.phase1().succeeded()).isEqualTo(1);
            assertThat(p.store.stage1Output(id)).isPresent();
            assertThat(p.clock.instant()).as("no clock moved").isEqualTo(Pipeline.T0);
        }
    }

    @Test
    void aConversationNotEnded_waitsForItsIdleWindow() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            String id = Pipeline.uuidV7(p.clock.instant());
            talk(p, id, "set up the build").close();

            assertThat(nextStartupTask(p).phase1().claimed()).isZero();
            assertThat(p.engine.admin().previewPhase1("current-thread").candidates())
                    .extracting(Phase1Preview.Candidate::verdict).containsExactly(Phase1Preview.Verdict.NOT_IDLE);

            p.idle();
            assertThat(nextStartupTask(p).phase1().succeeded()).isEqualTo(1);
            assertThat(p.store.stage1Output(id)).isPresent();
        }
    }

    @Test
    void closeConversation_endsASharedConversation_evenOneNoLongerOpen() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            String open = Pipeline.uuidV7(p.clock.instant());
            MemorySession shared = p.engine.conversation(open);
            shared.startupTask().completion().get(30, TimeUnit.SECONDS);
            shared.userMessage("rename the module");
            String closedEarlier = Pipeline.uuidV7(p.clock.instant());
            talk(p, closedEarlier, "bump the version").close();

            assertThat(p.engine.closeConversation(open)).isTrue();
            assertThat(p.engine.closeConversation(closedEarlier)).as("no session was open").isFalse();

            assertThat(nextStartupTask(p).phase1().succeeded()).isEqualTo(2);
            assertThat(p.store.stage1Output(open)).isPresent();
            assertThat(p.store.stage1Output(closedEarlier)).isPresent();
        }
    }

    @Test
    void aTurnAfterTheEnd_putsTheConversationBackUnderTheIdleRule() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            String id = Pipeline.uuidV7(p.clock.instant());
            try (MemorySession session = talk(p, id, "set up the build")) {
                session.end();
                p.clock.advance(Duration.ofSeconds(1));
                session.userMessage("one more thing");
            }

            assertThat(nextStartupTask(p).phase1().claimed()).isZero();
            assertThat(p.engine.admin().previewPhase1("current-thread").candidates()).singleElement()
                    .satisfies(c -> assertThat(c.detail()).contains("after it was ended at"));
        }
    }
}
