package dev.mnemo.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One operation on memory, in the terms of OpenTelemetry's GenAI memory conventions: what
 * {@link MemoryEventListener#memoryOperation} hears, and what a tracing listener turns into a
 * {@code gen_ai.memory.client} span.
 *
 * @param type which of the four operations it was
 * @param source what did it, in Mnemo's words: {@code instructions}, a memory tool's name
 *     ({@code memories_read}, {@code memories_search}, {@code memories_list},
 *     {@code memories_add_ad_hoc_note}), {@code stage1_output}, {@code consolidation},
 *     {@code forget} or {@code clear}
 * @param storeId the memory store it worked on: the tenant's id, or the home's label; never a path
 * @param recordId the record it concerned, when one: a conversation's id, a note's path
 * @param recordCount how many records it returned, created, changed or deleted
 * @param query the query or path it was asked for (searches and reads), as given: a listener that
 *     shows it must redact it
 * @param records the content it returned or stored, as given, for listeners that capture content
 *     (and must redact it); empty where the engine had none at hand
 * @param startedAt when it started, by the wall clock
 * @param elapsed how long it took
 * @param errorType why it failed, as a short code (an exception's class name, {@code tool_error}),
 *     when it did
 * @param runId the background run it belonged to (see {@link MemoryEventListener#runStarted}), when
 *     it ran in one; empty for what ran on the caller's thread
 */
public record MemoryOperation(Type type, String source, String storeId, Optional<String> recordId,
        int recordCount, Optional<String> query, List<String> records, Instant startedAt, Duration elapsed,
        Optional<String> errorType, Optional<String> runId) {

    /**
     * Checks the operation and copies {@code records}.
     *
     * @param type which of the four operations it was
     * @param source what did it, in Mnemo's words
     * @param storeId the memory store it worked on; never a path
     * @param recordId the record it concerned, when one
     * @param recordCount how many records it returned, created, changed or deleted; at least 0
     * @param query the query or path it was asked for, as given
     * @param records the content it returned or stored, as given; may be empty
     * @param startedAt when it started, by the wall clock
     * @param elapsed how long it took
     * @param errorType why it failed, as a short code, when it did
     * @param runId the background run it belonged to, when one
     * @throws IllegalArgumentException when {@code recordCount} is negative
     */
    public MemoryOperation {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(storeId, "storeId");
        Objects.requireNonNull(recordId, "recordId");
        Objects.requireNonNull(query, "query");
        records = List.copyOf(Objects.requireNonNull(records, "records"));
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(elapsed, "elapsed");
        Objects.requireNonNull(errorType, "errorType");
        Objects.requireNonNull(runId, "runId");
        if (recordCount < 0) {
            throw new IllegalArgumentException("recordCount must not be negative, was " + recordCount);
        }
    }

    /**
     * Whether it failed.
     *
     * @return true when {@code errorType} is present
     */
    public boolean failed() {
        return errorType.isPresent();
    }

    /** The four operations of the conventions, with their {@code gen_ai.operation.name}. */
    public enum Type {
        /** Instructions built, a memory tool read, listed or searched. */
        SEARCH("search_memory"),
        /** A note added, a stage-1 output stored. */
        CREATE("create_memory"),
        /** A consolidation that changed the memory folder. */
        UPDATE("update_memory"),
        /** A forget, or clearing a home. */
        DELETE("delete_memory");

        private final String operationName;

        Type(String operationName) {
            this.operationName = operationName;
        }

        /**
         * The {@code gen_ai.operation.name} value.
         *
         * @return the operation name, e.g. {@code search_memory}
         */
        public String operationName() {
            return operationName;
        }
    }
}
