package dev.mnemo.spi;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * One consolidation run.
 *
 * @param memoryRoot the folder the agent may read and write, and nothing outside it
 * @param prompt the consolidation instructions (mode, inputs, file formats)
 * @param model the model name to use (may be empty: the model client's default)
 * @param timeout how long the run may take
 */
public record ConsolidationAgentRequest(Path memoryRoot, String prompt, String model, Duration timeout) {
    /**
     * Checks the request.
     *
     * @param memoryRoot the folder the agent may read and write
     * @param prompt the consolidation instructions
     * @param model the model name; empty for the model client's default
     * @param timeout how long the run may take; positive
     * @throws IllegalArgumentException when {@code timeout} is zero or negative
     */
    public ConsolidationAgentRequest {
        Objects.requireNonNull(memoryRoot, "memoryRoot");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }
}
