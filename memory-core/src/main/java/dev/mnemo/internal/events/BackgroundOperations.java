package dev.mnemo.internal.events;

import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Tells the engine's listeners of the background pipeline's runs ({@link MemoryEventListener#runStarted},
 * {@link MemoryEventListener#runFinished}) and of the {@link MemoryOperation}s done in them and by
 * forgets, each with the engine's store id.
 *
 * <p>A run is started on the thread that starts it, before it is handed to an executor
 * ({@link #startRun()}); the thread that then does its work enters it ({@link Run#within}), so
 * what the runners report on that thread carries its id ({@link #currentRun()}) without every
 * runner's signature naming it. Work a run hands to helper threads takes the id along explicitly.
 */
public final class BackgroundOperations {

    /** The source of a forget's operations: the delete on the caller's thread, the update of the files. */
    public static final String FORGET = "forget";

    /** The run the current thread works for, while it works for one. */
    private static final ThreadLocal<String> CURRENT_RUN = new ThreadLocal<>();

    private final MemoryEventListener listener;
    private final String storeId;
    private final Clock wallClock;

    /**
     * @param listener the engine's listeners, each shielded from the others' failures
     * @param storeId the tenant's id or the home's label; never a path
     * @param wallClock times the operations
     */
    public BackgroundOperations(MemoryEventListener listener, String storeId, Clock wallClock) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.storeId = Objects.requireNonNull(storeId, "storeId");
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
    }

    /** Operations nobody hears: for runners built without an engine (tests, tools). */
    public static BackgroundOperations silent() {
        return new BackgroundOperations(new MemoryEventListener() {}, "", Clock.systemUTC());
    }

    /** The store id the operations carry. */
    public String storeId() {
        return storeId;
    }

    /** A new run, announced now on this thread with a fresh random id. */
    public Run startRun() {
        Run run = new Run(newRunId());
        listener.runStarted(run.id);
        return run;
    }

    /**
     * Runs {@code work} as one run on this thread: started, entered, and finished however it ends.
     */
    public <T> T asRun(Supplier<T> work) {
        Run run = startRun();
        try {
            return run.within(work);
        } finally {
            run.finish();
        }
    }

    /** The run the current thread works for; empty on a caller's thread. */
    public static Optional<String> currentRun() {
        return Optional.ofNullable(CURRENT_RUN.get());
    }

    /** When an operation starts: the wall-clock instant and the nano time it is measured from. */
    public record Start(Instant at, long nanos) {}

    /** The start of an operation, now. */
    public Start start() {
        return new Start(wallClock.instant(), System.nanoTime());
    }

    /**
     * Tells the listeners of one operation that ended now.
     *
     * @param recordId the conversation it concerned, when one
     * @param records the content it stored, for listeners that capture content
     * @param errorType why it failed, as a short code, when it did
     * @param runId the run it belonged to; empty when it ran on the caller's thread
     */
    public void operation(MemoryOperation.Type type, String source, Optional<String> recordId, int recordCount,
            List<String> records, Start start, Optional<String> errorType, Optional<String> runId) {
        Duration elapsed = Duration.ofNanos(Math.max(0, System.nanoTime() - start.nanos()));
        listener.memoryOperation(new MemoryOperation(type, source, storeId, recordId, recordCount, Optional.empty(),
                records, start.at(), elapsed, errorType, runId));
    }

    /**
     * A pass that completed forgets in the files (dropped the consolidations that used them and
     * restored the folder): an {@code update_memory} of source {@value #FORGET} in the run this
     * thread works for, counting the conversations forgotten, with the conversation as its record
     * when there was one.
     */
    public void forgetsCompleted(Set<String> threadIds, Start start, Optional<String> errorType) {
        Optional<String> recordId = threadIds.size() == 1 ? Optional.of(threadIds.iterator().next()) : Optional.empty();
        operation(MemoryOperation.Type.UPDATE, FORGET, recordId, threadIds.size(), List.of(), start, errorType,
                currentRun());
    }

    /** 128 random bits in hex: no SecureRandom to seed for an id that only has to be unique. */
    private static String newRunId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return HexFormat.of().toHexDigits(random.nextLong()) + HexFormat.of().toHexDigits(random.nextLong());
    }

    /** One background run: finished exactly once, however it ends. */
    public final class Run {
        private final String id;
        private final AtomicBoolean finished = new AtomicBoolean();

        private Run(String id) {
            this.id = id;
        }

        /** The run's id. */
        public String id() {
            return id;
        }

        /** Does {@code work} on this thread as this run's: what it reports carries the run's id. */
        public <T> T within(Supplier<T> work) {
            String outer = CURRENT_RUN.get();
            CURRENT_RUN.set(id);
            try {
                return work.get();
            } finally {
                if (outer == null) {
                    CURRENT_RUN.remove();
                } else {
                    CURRENT_RUN.set(outer);
                }
            }
        }

        /** Tells the listeners the run ended; later calls do nothing. */
        public void finish() {
            if (finished.compareAndSet(false, true)) {
                listener.runFinished(id);
            }
        }
    }
}
