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
    public ConsolidationAgentResult {
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(error, "error");
    }

    public static ConsolidationAgentResult completed(TokenUsage usage) {
        return new ConsolidationAgentResult(true, usage, Optional.empty());
    }

    public static ConsolidationAgentResult failed(String error, TokenUsage usage) {
        return new ConsolidationAgentResult(false, usage, Optional.of(error));
    }
}
