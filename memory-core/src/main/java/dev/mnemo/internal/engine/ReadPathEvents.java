package dev.mnemo.internal.engine;

import dev.mnemo.internal.read.DeveloperInstructions;
import dev.mnemo.internal.tools.ToolCallFacts;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The read path's {@link MemoryOperation}s, told to the engine's listeners on the caller's thread
 * (so a tracing listener's current context is the caller's): a {@code search_memory} for each build
 * of the instructions and each memory tool read, list or search, a {@code create_memory} for each
 * note a tool wrote. They belong to no background run.
 */
final class ReadPathEvents {

    /** The source of an instructions build. */
    static final String INSTRUCTIONS = "instructions";
    /** The error type of a tool that answered with an error. */
    static final String TOOL_ERROR = "tool_error";

    private final MemoryEventListener listener;
    private final Supplier<String> storeId;
    private final Clock wallClock;
    /** False when no listener hears memory operations: then none is built, and no clock is read. */
    private final boolean heard;
    /** The store's label, asked once (it does not change) rather than made again each turn. */
    private volatile String storeLabel;

    /**
     * @param storeId the store's label ({@link EngineParts#storeLabel()}), asked when first needed;
     *     the same every time
     */
    ReadPathEvents(MemoryEventListener listener, Supplier<String> storeId, Clock wallClock) {
        this.listener = listener;
        this.storeId = storeId;
        this.wallClock = wallClock;
        this.heard = !(listener instanceof SafeListener safe) || safe.hearsMemoryOperations();
    }

    /** When an operation starts: the wall-clock instant and the nano time it is measured from. */
    record Start(Instant at, long nanos) {
        /** The start of an operation no listener hears. */
        static final Start UNHEARD = new Start(Instant.EPOCH, 0);
    }

    Start start() {
        return heard ? new Start(wallClock.instant(), System.nanoTime()) : Start.UNHEARD;
    }

    /** One build of the instructions: its files are the records it returned. */
    void instructions(Start start, DeveloperInstructions.Built built) {
        emit(MemoryOperation.Type.SEARCH, INSTRUCTIONS, Optional.empty(), built.injected().size(), Optional.empty(),
                List.of(), start, Optional.empty());
    }

    /** A build of the instructions that threw. */
    void instructionsFailed(Start start, RuntimeException failure) {
        emit(MemoryOperation.Type.SEARCH, INSTRUCTIONS, Optional.empty(), 0, Optional.empty(), List.of(), start,
                Optional.of(failure.getClass().getName()));
    }

    /** One memory tool call: a read, list or search, or a note written; other calls are not operations. */
    void toolCall(Start start, ToolCallFacts call, String output) {
        if (!heard) {
            return;
        }
        Optional<String> error = call.failed() ? Optional.of(TOOL_ERROR) : Optional.empty();
        if (call.isRead()) {
            String target = call.target();
            emit(MemoryOperation.Type.SEARCH, call.tool(), call.tool().equals(dev.mnemo.MemoryTools.READ)
                    ? call.path() : Optional.empty(), call.count(),
                    target.isEmpty() ? Optional.empty() : Optional.of(target), List.of(output), start, error);
        } else if (call.wroteNote()) {
            emit(MemoryOperation.Type.CREATE, call.tool(), call.path(), 1, Optional.empty(), List.of(), start,
                    Optional.empty());
        }
    }

    private void emit(MemoryOperation.Type type, String source, Optional<String> recordId, int count,
            Optional<String> query, List<String> records, Start start, Optional<String> errorType) {
        if (!heard) {
            return;
        }
        String store = storeLabel;
        if (store == null) {
            store = storeId.get();
            storeLabel = store;
        }
        Duration elapsed = Duration.ofNanos(Math.max(0, System.nanoTime() - start.nanos()));
        listener.memoryOperation(new MemoryOperation(type, source, store, recordId, count, query, records,
                start.at(), elapsed, errorType, Optional.empty()));
    }
}
