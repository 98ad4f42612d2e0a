package dev.mnemo;

import java.util.Objects;
import java.util.Optional;

/**
 * An assistant answer after {@link MemoryEngine#processAssistantMessage} or
 * {@link MemorySession#assistantMessage}.
 *
 * @param visibleText the answer without citation markup
 * @param citation what it cited, if it cited anything parseable
 * @param usageRecorded how many memory rows had their usage count raised
 * @param receipt what memory the answer was given, read and cited
 */
public record AssistantMessage(String visibleText, Optional<MemoryCitation> citation, int usageRecorded,
        MemoryReceipt receipt) {
    /**
     * Checks the components.
     *
     * @param visibleText the answer without citation markup
     * @param citation what it cited, if it cited anything parseable
     * @param usageRecorded how many memory rows had their usage count raised
     * @param receipt what memory the answer was given, read and cited
     * @throws NullPointerException when {@code visibleText}, {@code citation} or {@code receipt} is null
     * @throws IllegalArgumentException when {@code usageRecorded} is negative
     */
    public AssistantMessage {
        Objects.requireNonNull(visibleText, "visibleText");
        Objects.requireNonNull(citation, "citation");
        Objects.requireNonNull(receipt, "receipt");
        if (usageRecorded < 0) {
            throw new IllegalArgumentException("usageRecorded must not be negative, was " + usageRecorded);
        }
    }

    /**
     * An answer with a receipt that names only its citation (and no conversation).
     *
     * @param visibleText the answer without citation markup
     * @param citation what it cited, if it cited anything parseable
     * @param usageRecorded how many memory rows had their usage count raised; not negative
     */
    public AssistantMessage(String visibleText, Optional<MemoryCitation> citation, int usageRecorded) {
        this(visibleText, citation, usageRecorded, new MemoryReceipt("", java.util.List.of(), java.util.List.of(),
                Objects.requireNonNull(citation, "citation").stream().toList()));
    }
}
