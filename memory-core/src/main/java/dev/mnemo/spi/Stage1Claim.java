package dev.mnemo.spi;

import dev.mnemo.ThreadInfo;
import java.time.Instant;
import java.util.Objects;

/**
 * A Phase 1 job the caller now owns.
 *
 * @param thread the thread whose rollout is to be extracted
 * @param ownershipToken present it to complete the job
 * @param sourceUpdatedAt the rollout version claimed: the thread's {@code updatedAt} in whole seconds
 */
public record Stage1Claim(ThreadInfo thread, String ownershipToken, Instant sourceUpdatedAt) {
    /**
     * Checks that no component is null.
     *
     * @param thread the thread whose rollout is to be extracted
     * @param ownershipToken the token to present to complete the job
     * @param sourceUpdatedAt the rollout version claimed
     */
    public Stage1Claim {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
    }
}
