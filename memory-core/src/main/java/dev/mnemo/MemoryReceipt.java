package dev.mnemo;

import java.util.List;
import java.util.Objects;

/**
 * What memory one answer was given, read and cited: the receipt of a turn. It holds no memory text
 * and no secret, only content hashes, sizes and paths relative to the memory folder, so it may be
 * logged, stored and shown anywhere.
 *
 * @param threadId the conversation the answer belongs to ({@code ""} when the answer was handed in
 *     without one)
 * @param injected the summaries and notes that were in the developer instructions the turn used
 *     (empty when the turn was given no memory)
 * @param reads every memory tool call of the turn, in order
 * @param citations the citations the answer carried, parsed and resolved to files and conversations
 */
public record MemoryReceipt(String threadId, List<InjectedFile> injected, List<ToolRead> reads,
        List<MemoryCitation> citations) {

    /**
     * Checks the components and copies the lists, unmodifiable.
     *
     * @param threadId the conversation the answer belongs to ({@code ""} when none)
     * @param injected the summaries and notes that were in the developer instructions the turn used
     * @param reads every memory tool call of the turn, in order
     * @param citations the citations the answer carried
     * @throws NullPointerException when a component is null
     */
    public MemoryReceipt {
        Objects.requireNonNull(threadId, "threadId");
        injected = List.copyOf(Objects.requireNonNull(injected, "injected"));
        reads = List.copyOf(Objects.requireNonNull(reads, "reads"));
        citations = List.copyOf(Objects.requireNonNull(citations, "citations"));
    }

    /**
     * The receipt of a turn that was given, read and cited no memory.
     *
     * @param threadId the conversation the answer belongs to ({@code ""} when none)
     * @return a receipt with no injected file, read or citation
     */
    public static MemoryReceipt none(String threadId) {
        return new MemoryReceipt(threadId, List.of(), List.of(), List.of());
    }

    /**
     * The thread-log target under which each turn's receipt is logged in its conversation's thread,
     * as {@link #toLogMessage()} writes it.
     */
    public static final String LOG_TARGET = "mnemo::receipt";

    /**
     * This receipt as one thread-log message: a sentence for people ("memory given: 2 file(s), 812
     * tokens; read: none; cited: none"), then the receipt as JSON, which {@link #fromLogMessage}
     * reads back. Citation notes are left out.
     *
     * @return the log message: a sentence, then the receipt as JSON
     */
    public String toLogMessage() {
        return dev.mnemo.internal.logs.ReceiptLine.format(this);
    }

    /**
     * The receipt in a message {@link #toLogMessage()} wrote; empty for any other message.
     *
     * @param message a thread-log message
     * @return the receipt it carries, or empty
     * @throws NullPointerException when {@code message} is null
     */
    public static java.util.Optional<MemoryReceipt> fromLogMessage(String message) {
        return dev.mnemo.internal.logs.ReceiptLine.parse(java.util.Objects.requireNonNull(message, "message"));
    }

    /**
     * Whether the instructions of the turn carried any memory.
     *
     * @return true when at least one file was injected
     */
    public boolean given() {
        return !injected.isEmpty();
    }

    /**
     * Whether the turn called a memory tool.
     *
     * @return true when the turn made at least one memory tool call
     */
    public boolean read() {
        return !reads.isEmpty();
    }

    /**
     * Whether the answer cited memory.
     *
     * @return true when the answer carried at least one citation
     */
    public boolean cited() {
        return !citations.isEmpty();
    }

    /**
     * One file whose content was in the developer instructions.
     *
     * @param scope {@code global}, or {@code project:<slug>} for a project's summary and notes
     * @param kind {@code summary} or {@code note}
     * @param path the file, relative to the memory folder, with {@code /} separators
     * @param sha256 the lowercase hex SHA-256 of the file's bytes as read
     * @param bytes the file's size in bytes
     * @param tokens the tokens of what was injected from it, counted as the summary cap counts them
     * @param truncated whether the cap cut it
     */
    public record InjectedFile(String scope, String kind, String path, String sha256, long bytes, int tokens,
            boolean truncated) {
        /**
         * Checks the components.
         *
         * @param scope {@code global}, or {@code project:<slug>}
         * @param kind {@code summary} or {@code note}
         * @param path the file, relative to the memory folder
         * @param sha256 the lowercase hex SHA-256 of the file's bytes
         * @param bytes the file's size in bytes
         * @param tokens the tokens of what was injected from it
         * @param truncated whether the cap cut it
         * @throws NullPointerException when a component is null
         * @throws IllegalArgumentException when {@code bytes} or {@code tokens} is negative
         */
        public InjectedFile {
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(sha256, "sha256");
            if (bytes < 0 || tokens < 0) {
                throw new IllegalArgumentException("bytes and tokens must not be negative, were " + bytes + " and " + tokens);
            }
        }
    }

    /**
     * One memory tool call of the turn.
     *
     * @param tool the tool's name, e.g. {@code memories_read}
     * @param target the path it read or listed, or the query it searched for (redacted), relative to
     *     the memory folder; {@code ""} when it named none
     * @param bytesReturned the size in bytes of the result the model was given
     * @param failed whether the tool answered with an error
     */
    public record ToolRead(String tool, String target, long bytesReturned, boolean failed) {
        /**
         * Checks the components.
         *
         * @param tool the tool's name
         * @param target the path or query, relative to the memory folder; {@code ""} when none
         * @param bytesReturned the size in bytes of the result the model was given
         * @param failed whether the tool answered with an error
         * @throws NullPointerException when a component is null
         * @throws IllegalArgumentException when {@code bytesReturned} is negative
         */
        public ToolRead {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(target, "target");
            if (bytesReturned < 0) {
                throw new IllegalArgumentException("bytesReturned must not be negative, was " + bytesReturned);
            }
        }
    }
}
