package dev.mnemo.spi;

import dev.mnemo.llm.TokenUsage;
import java.util.Objects;
import java.util.Optional;

/**
 * How a consolidation run ended.
 *
 * @param completed true when the agent finished its work (the artifacts are then validated)
 * @param usage tokens spent
 * @param error why it did not complete
 */
public record ConsolidationAgentResult(boolean completed, TokenUsage usage, Optional<String> error) {
    /**
     * Checks the result.
     *
     * @param completed true when the agent finished its work
     * @param usage tokens spent
     * @param error why it did not complete; empty when it did
     */
    public ConsolidationAgentResult {
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(error, "error");
    }

    /**
     * A run that completed.
     *
     * @param usage the tokens it spent
     * @return a result with {@code completed} true and no error
     */
    public static ConsolidationAgentResult completed(TokenUsage usage) {
        return new ConsolidationAgentResult(true, usage, Optional.empty());
    }

    /**
     * A run that did not complete.
     *
     * @param error why it did not complete
     * @param usage the tokens spent before it stopped
     * @return a result with {@code completed} false
     */
    public static ConsolidationAgentResult failed(String error, TokenUsage usage) {
        return new ConsolidationAgentResult(false, usage, Optional.of(error));
    }
}
