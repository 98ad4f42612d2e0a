package dev.mnemo.spi;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A stored stage-1 memory ({@code stage1_outputs} row), with the thread fields Phase 2 writes
 * next to it.
 *
 * @param threadId the thread
 * @param sourceUpdatedAt the rollout version it was extracted from (whole seconds)
 * @param result what was extracted
 * @param generatedAt when it was stored
 * @param usageCount how often answers cited it (0 when never)
 * @param lastUsage when it was last cited
 * @param selectedSnapshot when it was part of the last successful consolidation, the
 *     {@code sourceUpdatedAt} of the version that was used
 * @param rolloutPath the thread's rollout file
 * @param cwd the thread's working folder
 * @param gitBranch the thread's git branch
 * @param project the project the thread was in when this memory was extracted (stored beside the
 *     memory, {@code stage1_outputs.project}); empty for a global memory
 */
public record Stage1Output(String threadId, Instant sourceUpdatedAt, Stage1Result result, Instant generatedAt,
        int usageCount, Optional<Instant> lastUsage, Optional<Instant> selectedSnapshot, Path rolloutPath,
        Optional<Path> cwd, Optional<String> gitBranch, Optional<String> project) {
    /**
     * Checks the row: no component is null.
     *
     * @param threadId the thread
     * @param sourceUpdatedAt the rollout version it was extracted from (whole seconds)
     * @param result what was extracted
     * @param generatedAt when it was stored
     * @param usageCount how often answers cited it, at least 0
     * @param lastUsage when it was last cited; empty when never
     * @param selectedSnapshot the version used by the last successful consolidation, when it was part of it
     * @param rolloutPath the thread's rollout file
     * @param cwd the thread's working folder, when known
     * @param gitBranch the thread's git branch, when known
     * @param project the project the thread was in when this memory was extracted; empty for a global memory
     * @throws IllegalArgumentException when {@code usageCount} is negative
     */
    public Stage1Output {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(generatedAt, "generatedAt");
        Objects.requireNonNull(lastUsage, "lastUsage");
        Objects.requireNonNull(selectedSnapshot, "selectedSnapshot");
        Objects.requireNonNull(rolloutPath, "rolloutPath");
        Objects.requireNonNull(cwd, "cwd");
        Objects.requireNonNull(gitBranch, "gitBranch");
        Objects.requireNonNull(project, "project");
        if (usageCount < 0) {
            throw new IllegalArgumentException("usageCount must not be negative, was " + usageCount);
        }
    }

    /**
     * A memory with no project (the form of earlier releases).
     *
     * @param threadId the thread
     * @param sourceUpdatedAt the rollout version it was extracted from (whole seconds)
     * @param result what was extracted
     * @param generatedAt when it was stored
     * @param usageCount how often answers cited it, at least 0
     * @param lastUsage when it was last cited; empty when never
     * @param selectedSnapshot the version used by the last successful consolidation, when it was part of it
     * @param rolloutPath the thread's rollout file
     * @param cwd the thread's working folder, when known
     * @param gitBranch the thread's git branch, when known
     */
    public Stage1Output(String threadId, Instant sourceUpdatedAt, Stage1Result result, Instant generatedAt,
            int usageCount, Optional<Instant> lastUsage, Optional<Instant> selectedSnapshot, Path rolloutPath,
            Optional<Path> cwd, Optional<String> gitBranch) {
        this(threadId, sourceUpdatedAt, result, generatedAt, usageCount, lastUsage, selectedSnapshot, rolloutPath, cwd,
                gitBranch, Optional.empty());
    }

    /**
     * This row's identity for exact-snapshot marking.
     *
     * @return the thread and the rollout version of this memory
     */
    public SelectedInput snapshot() {
        return new SelectedInput(threadId, sourceUpdatedAt);
    }
}
