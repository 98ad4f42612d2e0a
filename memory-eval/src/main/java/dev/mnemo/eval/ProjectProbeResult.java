package dev.mnemo.eval;

import java.util.List;
import java.util.Objects;

/**
 * How one answer to one probe of a {@link CrossProjectScenario} was graded.
 *
 * @param project the name of the project the probe was asked in
 * @param recalled the answer holds the project's own value (or the shared preference)
 * @param conflicting another project has its own value of what the probe asks: the answer can be
 *     contaminated (false for the shared preference's probe)
 * @param contaminated the answer holds another project's value of what was asked
 * @param foreignFacts the other projects' values the answer holds
 * @param scenarioId the cross-project scenario's id
 * @param probeId the probe's id
 * @param readPath the read path the answer was given on
 * @param answer the model's answer, as graded
 */
public record ProjectProbeResult(String scenarioId, String probeId, String project, ReadPath readPath, String answer,
        boolean recalled, boolean conflicting, boolean contaminated, List<String> foreignFacts) {

    /**
     * Checks the components and copies the collections.
     *
     * @param scenarioId the cross-project scenario's id
     * @param probeId the probe's id
     * @param project the name of the project the probe was asked in
     * @param readPath the read path the answer was given on
     * @param answer the model's answer, as graded
     * @param recalled the answer holds the project's own value (or the shared preference)
     * @param conflicting another project has its own value of what the probe asks: the answer can be
     *     contaminated (false for the shared preference's probe)
     * @param contaminated the answer holds another project's value of what was asked
     * @param foreignFacts the other projects' values the answer holds
     * @throws NullPointerException when a required component is null
     */
    public ProjectProbeResult {
        Objects.requireNonNull(scenarioId, "scenarioId");
        Objects.requireNonNull(probeId, "probeId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(readPath, "readPath");
        Objects.requireNonNull(answer, "answer");
        foreignFacts = List.copyOf(foreignFacts);
    }
}
