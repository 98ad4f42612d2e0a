package dev.mnemo.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import dev.mnemo.MemoryEngine;
import dev.mnemo.ThreadLogEntry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The appender over a real engine's thread logs ({@code logs.sqlite} in a temp home), with a
 * Logback context of the test's own.
 */
class MnemoLogbackAppenderTest {

    @TempDir
    Path home;

    @Test
    void installedAppender_filesEventsUnderTheMdcThread_andSkipsMnemosOwnLoggers() {
        LoggerContext context = new LoggerContext();
        LogbackMDCAdapter mdc = new LogbackMDCAdapter();
        context.setMDCAdapter(mdc);
        try (MemoryEngine engine = MemoryEngine.builder().home(home).build()) {
            Logger app = context.getLogger("com.example.agent");
            MnemoLogbackAppender appender = MnemoLogbackAppender.install(engine.threadLogs(), app);

            app.info("no conversation here");
            mdc.put(MnemoLogbackAppender.THREAD_ID_KEY, "chat-42");
            app.warn("tool {} timed out", "search");
            mdc.clear();
            Logger mnemo = context.getLogger("dev.mnemo.internal.engine.Something");
            mnemo.addAppender(appender);
            mnemo.error("never copied");
            engine.threadLogs().flush();

            assertThat(engine.threadLogs().query("chat-42", 10)).singleElement().satisfies(e -> {
                assertThat(e.level()).isEqualTo("WARN");
                assertThat(e.target()).isEqualTo("com.example.agent");
                assertThat(e.message()).isEqualTo("tool search timed out");
            });
            assertThat(engine.threadLogs().query(MnemoLogbackAppender.APPLICATION_THREAD, 10))
                    .extracting(ThreadLogEntry::message).containsExactly("no conversation here");
            app.detachAppender(appender);
            appender.stop();
        } finally {
            context.stop();
        }
    }
}
