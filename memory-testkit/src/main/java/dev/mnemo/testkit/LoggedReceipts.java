package dev.mnemo.testkit;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.ThreadLogEntry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The receipts a conversation's turns logged in its thread log (target
 * {@link MemoryReceipt#LOG_TARGET}), read back: what a test compares the receipt an API or adapter
 * handed out with.
 */
public final class LoggedReceipts {

    private LoggedReceipts() {}

    /**
     * The receipts logged in {@code threadId}'s thread log, oldest first, after flushing the log queue.
     *
     * @param engine the engine whose thread logs are read; not null
     * @param threadId the conversation's thread id; not null
     * @return the receipts among up to 1000 of its log entries; empty if none was logged
     */
    public static List<MemoryReceipt> of(MemoryEngine engine, String threadId) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(threadId, "threadId");
        engine.threadLogs().flush();
        return engine.threadLogs().query(threadId, 1000).stream()
                .filter(entry -> entry.target().equals(MemoryReceipt.LOG_TARGET)).map(ThreadLogEntry::message)
                .map(MemoryReceipt::fromLogMessage).flatMap(Optional::stream).toList();
    }
}
