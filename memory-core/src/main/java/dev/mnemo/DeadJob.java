package dev.mnemo;

import java.time.Instant;
import java.util.Objects;

/**
 * A dead Phase 1 job: every retry of the conversation's current rollout version failed, so nothing
 * extracts it again until its rollout changes or someone puts the job back
 * ({@link MemoryAdmin#retry(String)}, {@link MemoryAdmin#retryDead()}, {@code mnemo jobs retry}).
 * Failures that are not the rollout's fault (the model unreachable, rate limited, …) never spend a
 * retry, so a job dies only of failures such as filtered content or replies that never match the
 * schema.
 *
 * @param threadId the conversation whose extraction died
 * @param reason the last failure, as the job recorded it
 * @param failedAt when the last attempt failed (whole seconds)
 * @param failures how many failed attempts spent the job's retries
 */
public record DeadJob(String threadId, String reason, Instant failedAt, int failures) {

    /**
     * Checks the components.
     *
     * @param threadId the conversation whose extraction died
     * @param reason the last failure, as the job recorded it
     * @param failedAt when the last attempt failed (whole seconds)
     * @param failures how many failed attempts spent the job's retries
     * @throws NullPointerException when {@code threadId}, {@code reason} or {@code failedAt} is null
     * @throws IllegalArgumentException when {@code failures} is negative
     */
    public DeadJob {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(failedAt, "failedAt");
        if (failures < 0) {
            throw new IllegalArgumentException("failures must be >= 0, was " + failures);
        }
    }
}
