package dev.mnemo.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * The answer to a claim attempt.
 *
 * @param outcome how it ended
 * @param ownershipToken for {@link ClaimOutcome#CLAIMED}, the token every completion must present
 * @param inputWatermark for a claimed Phase 2 job, the job's input watermark (epoch seconds); 0 otherwise
 */
public record JobClaim(ClaimOutcome outcome, Optional<String> ownershipToken, long inputWatermark) {
    /**
     * Checks that a token comes with {@code CLAIMED}, and only with it.
     *
     * @param outcome how it ended
     * @param ownershipToken the token, present exactly when {@code outcome} is {@code CLAIMED}
     * @param inputWatermark the Phase 2 job's input watermark (epoch seconds), or 0
     * @throws IllegalArgumentException when a token is present without {@code CLAIMED} or missing with it
     */
    public JobClaim {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        if ((outcome == ClaimOutcome.CLAIMED) != ownershipToken.isPresent()) {
            throw new IllegalArgumentException("an ownership token goes with CLAIMED and only with it, outcome was "
                    + outcome);
        }
    }

    /**
     * A successful claim.
     *
     * @param ownershipToken the token every completion must present
     * @param inputWatermark the Phase 2 job's input watermark (epoch seconds); 0 for Phase 1
     * @return a {@code CLAIMED} answer
     */
    public static JobClaim claimed(String ownershipToken, long inputWatermark) {
        return new JobClaim(ClaimOutcome.CLAIMED, Optional.of(ownershipToken), inputWatermark);
    }

    /**
     * A claim that took nothing.
     *
     * @param outcome why it took nothing; not {@code CLAIMED}
     * @return an answer without a token
     */
    public static JobClaim skipped(ClaimOutcome outcome) {
        return new JobClaim(outcome, Optional.empty(), 0);
    }

    /**
     * Whether the job was claimed.
     *
     * @return true for {@link ClaimOutcome#CLAIMED}
     */
    public boolean isClaimed() {
        return outcome == ClaimOutcome.CLAIMED;
    }

    /**
     * The token; only for a claimed job.
     *
     * @return the ownership token
     * @throws IllegalStateException when the job was not claimed
     */
    public String token() {
        return ownershipToken.orElseThrow(() -> new IllegalStateException("not claimed: " + outcome));
    }
}
