package dev.mnemo;

import java.util.Objects;
import java.util.Optional;

/**
 * An assistant answer after {@link MemoryEngine#processAssistantMessage}.
 *
 * @param visibleText the answer without citation markup
 * @param citation what it cited, if it cited anything parseable
 * @param usageRecorded how many memory rows had their usage count raised
 */
public record AssistantMessage(String visibleText, Optional<MemoryCitation> citation, int usageRecorded) {
    public AssistantMessage {
        Objects.requireNonNull(visibleText, "visibleText");
        Objects.requireNonNull(citation, "citation");
        if (usageRecorded < 0) {
            throw new IllegalArgumentException("usageRecorded must not be negative, was " + usageRecorded);
        }
    }
}
