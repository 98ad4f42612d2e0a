package dev.mnemo;

import dev.mnemo.llm.ModelException;
import java.time.Instant;
import java.util.Objects;

/**
 * The model itself failed a Phase 1 request: it was unreachable, refused the credentials, was rate
 * limited, failed on the server side, timed out, or rejected the request as invalid. Such a failure
 * is not the rollout's fault, so it spends none of the rollout's retries; the store keeps the last
 * one until a Phase 1 job next succeeds, and {@link MemoryStatus#lastModelFailure()} shows it.
 *
 * @param reason why the request failed, as the model client classified it
 * @param message the client's message (the server's own words, never the API key)
 * @param at when it failed (whole seconds)
 */
public record ModelFailure(ModelException.Reason reason, String message, Instant at) {

    /**
     * Checks the components.
     *
     * @param reason why the request failed
     * @param message the client's message
     * @param at when it failed
     * @throws NullPointerException when a component is null
     */
    public ModelFailure {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(at, "at");
    }

    /**
     * One line for logs and a job's {@code last_error}: {@code model error (NETWORK): could not reach …}.
     *
     * @return the reason and the message on one line
     */
    public String describe() {
        return "model error (" + reason + "): " + message;
    }
}
