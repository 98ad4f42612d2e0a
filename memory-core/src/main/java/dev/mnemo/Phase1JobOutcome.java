package dev.mnemo;

/** How one Phase 1 job (one rollout's extraction) ended; {@link #label()} is Codex's metric label. */
public enum Phase1JobOutcome {
    /** A raw memory was extracted and stored. */
    SUCCEEDED("succeeded"),
    /** The model found nothing worth keeping; the job is done and any earlier memory removed. */
    SUCCEEDED_NO_OUTPUT("succeeded_no_output"),
    /** The job failed; the listener's error says why. */
    FAILED("failed");

    private final String label;

    Phase1JobOutcome(String label) {
        this.label = label;
    }

    /**
     * Codex's lower-case label, e.g. {@code succeeded_no_output}.
     *
     * @return the label
     */
    public String label() {
        return label;
    }
}
