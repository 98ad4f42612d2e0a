package dev.mnemo.eval;

import java.util.List;
import java.util.Objects;

/**
 * How one answer to one probe was graded.
 *
 * @param recalled every expected fact is in the answer (always false for probes that expect none)
 * @param stale the answer repeats a fact a later session corrected
 * @param leaked the answer holds something that must never come back (a polluted fact, a secret)
 * @param missing the expected facts the answer lacks
 * @param userId the scenario user's id
 * @param probeId the probe's id
 * @param category what the probe tests
 * @param condition the condition the answer was given in
 * @param answer the model's answer, as graded
 */
public record ProbeResult(String userId, String probeId, Category category, Condition condition, String answer,
        boolean recalled, boolean stale, boolean leaked, List<String> missing) {

    /**
     * Checks the components and copies the collections.
     *
     * @param userId the scenario user's id
     * @param probeId the probe's id
     * @param category what the probe tests
     * @param condition the condition the answer was given in
     * @param answer the model's answer, as graded
     * @param recalled every expected fact is in the answer (always false for probes that expect none)
     * @param stale the answer repeats a fact a later session corrected
     * @param leaked the answer holds something that must never come back (a polluted fact, a secret)
     * @param missing the expected facts the answer lacks
     * @throws NullPointerException when a required component is null
     */
    public ProbeResult {
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(probeId, "probeId");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(answer, "answer");
        missing = List.copyOf(missing);
    }
}
