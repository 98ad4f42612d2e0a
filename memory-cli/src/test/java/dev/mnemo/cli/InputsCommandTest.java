package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mnemo inputs}: lists and searches the message history of a real home. */
class InputsCommandTest {

    @TempDir
    Path temp;

    private MnemoCliTest.Result mnemo(String... args) {
        return MnemoCliTest.run(temp, null, args);
    }

    private Path recordedHome() {
        Path home = temp.resolve("home");
        try (MemoryEngine engine = MemoryEngine.builder().home(home).build();
                RecordedSession session = engine.sessions().start(SessionContext.root("thread-1"))) {
            session.userMessage("fix the flaky upload test");
            session.userMessage("now bump the version");
            session.userMessage("and the UPLOAD docs");
        }
        return home;
    }

    @Test
    void inputs_listsTheNewestMessagesLast_withinTheLimit() {
        String home = recordedHome().toString();
        MnemoCliTest.Result r = mnemo("--home", home, "inputs", "--limit", "2");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines()).hasSize(2);
        assertThat(r.out().lines().toList().get(0)).contains("thread-1", "now bump the version");
        assertThat(r.out().lines().toList().get(1)).contains("and the UPLOAD docs");
    }

    @Test
    void inputs_searchMatchesIgnoringCase_andPrintsJson() {
        String home = recordedHome().toString();
        MnemoCliTest.Result r = mnemo("--home", home, "inputs", "--search", "upload", "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("fix the flaky upload test", "and the UPLOAD docs")
                .doesNotContain("bump the version").contains("\"session_id\"");
        MnemoCliTest.Result none = mnemo("--home", home, "inputs", "--search", "nothing like it");
        assertThat(none.out()).contains("no message contains");
        assertThat(mnemo("--home", home, "inputs", "--limit", "0").exitCode()).isEqualTo(2);
    }
}
