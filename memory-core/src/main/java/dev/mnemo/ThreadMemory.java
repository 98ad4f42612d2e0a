package dev.mnemo;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What Phase 1 remembered of one conversation, with where it came from and how it was used: what
 * a console shows as a memory's provenance.
 *
 * @param threadId the conversation
 * @param project the project it was extracted under; empty for global memory
 * @param rawMemory the detailed memory (redacted)
 * @param rolloutSummary the recap that Phase 2 reads (redacted)
 * @param sourceUpdatedAt the version of the conversation it was extracted from
 * @param generatedAt when it was extracted
 * @param usageCount how often answers cited it
 * @param lastUsage when it was last cited
 * @param awaitingApproval true while it waits for a person ({@code approval = "ask"})
 * @param inLastConsolidation true when the last successful consolidation used this version
 */
public record ThreadMemory(String threadId, Optional<String> project, String rawMemory, String rolloutSummary,
        Instant sourceUpdatedAt, Instant generatedAt, int usageCount, Optional<Instant> lastUsage,
        boolean awaitingApproval, boolean inLastConsolidation) {
    /**
     * Checks the components.
     *
     * @param threadId the conversation
     * @param project the project it was extracted under; empty for global memory
     * @param rawMemory the detailed memory (redacted)
     * @param rolloutSummary the recap that Phase 2 reads (redacted)
     * @param sourceUpdatedAt the version of the conversation it was extracted from
     * @param generatedAt when it was extracted
     * @param usageCount how often answers cited it
     * @param lastUsage when it was last cited
     * @param awaitingApproval true while it waits for a person
     * @param inLastConsolidation true when the last successful consolidation used this version
     * @throws NullPointerException when a component that is an object is null
     */
    public ThreadMemory {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(rawMemory, "rawMemory");
        Objects.requireNonNull(rolloutSummary, "rolloutSummary");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(generatedAt, "generatedAt");
        Objects.requireNonNull(lastUsage, "lastUsage");
    }
}
