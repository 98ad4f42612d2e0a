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
    public JobClaim {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        if ((outcome == ClaimOutcome.CLAIMED) != ownershipToken.isPresent()) {
            throw new IllegalArgumentException("an ownership token goes with CLAIMED and only with it, outcome was "
                    + outcome);
        }
    }

    public static JobClaim claimed(String ownershipToken, long inputWatermark) {
        return new JobClaim(ClaimOutcome.CLAIMED, Optional.of(ownershipToken), inputWatermark);
    }

    public static JobClaim skipped(ClaimOutcome outcome) {
        return new JobClaim(outcome, Optional.empty(), 0);
    }

    public boolean isClaimed() {
        return outcome == ClaimOutcome.CLAIMED;
    }

    /** The token; only for a claimed job. */
    public String token() {
        return ownershipToken.orElseThrow(() -> new IllegalStateException("not claimed: " + outcome));
    }
}
