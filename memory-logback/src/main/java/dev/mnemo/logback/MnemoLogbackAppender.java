package dev.mnemo.logback;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import java.util.Objects;

/**
 * Copies an application's Logback events into Mnemo's thread logs ({@code <home>/logs.sqlite}), so
 * {@code mnemo logs --thread ID} shows them beside Mnemo's own events. Nothing is captured unless
 * the application installs it:
 *
 * <pre>{@code
 * MnemoLogbackAppender.install(engine.threadLogs(), (Logger) LoggerFactory.getLogger("com.example.agent"));
 * MDC.put(MnemoLogbackAppender.THREAD_ID_KEY, conversationId);   // per request
 * }</pre>
 *
 * <p>An event is filed under the thread named by its MDC value {@link #THREAD_ID_KEY}, else under
 * the pseudo-thread {@link #APPLICATION_THREAD}. Appending only offers to the logs' bounded queue:
 * it never blocks the logging thread, and a full queue drops the event (counted in
 * {@link ThreadLogs#dropped()}). Mnemo's own loggers ({@code dev.mnemo.*}) are skipped: their
 * events already reach the logs as engine events, and a write failure must not log itself in a loop.
 */
public final class MnemoLogbackAppender extends AppenderBase<ILoggingEvent> {

    /** The MDC key naming the thread (conversation) an event belongs to. */
    public static final String THREAD_ID_KEY = "mnemo.thread_id";
    /** Where events with no thread in their MDC go. */
    public static final String APPLICATION_THREAD = "app";

    private final ThreadLogs logs;

    /**
     * An appender into {@code logs} (from {@code MemoryEngine.threadLogs()}); start it before use.
     *
     * @param logs the engine's thread logs the events are copied into
     */
    public MnemoLogbackAppender(ThreadLogs logs) {
        this.logs = Objects.requireNonNull(logs, "logs");
        setName("mnemo-thread-logs");
    }

    /**
     * Creates an appender into {@code logs}, starts it and adds it to {@code logger} (the root
     * logger, or one package's). Detach it with {@code logger.detachAppender(appender)} and
     * {@link #stop()} before the engine closes.
     *
     * @param logs the engine's thread logs the events are copied into
     * @param logger the logger whose events (and its children's) are copied
     * @return the started appender, already added to {@code logger}
     */
    public static MnemoLogbackAppender install(ThreadLogs logs, Logger logger) {
        Objects.requireNonNull(logger, "logger");
        MnemoLogbackAppender appender = new MnemoLogbackAppender(logs);
        appender.setContext(logger.getLoggerContext());
        appender.start();
        logger.addAppender(appender);
        return appender;
    }

    @Override
    protected void append(ILoggingEvent event) {
        String loggerName = event.getLoggerName();
        if (loggerName.startsWith("dev.mnemo.")) {
            return;
        }
        String threadId = event.getMDCPropertyMap().get(THREAD_ID_KEY);
        try {
            logs.append(new ThreadLogEntry(threadId == null || threadId.isBlank() ? APPLICATION_THREAD : threadId,
                    event.getInstant(), event.getLevel().toString(), loggerName, event.getFormattedMessage()));
        } catch (RuntimeException e) {
            addError("cannot copy a log event to Mnemo's thread logs", e);
        }
    }
}
