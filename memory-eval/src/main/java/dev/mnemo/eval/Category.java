package dev.mnemo.eval;

/** What a probe question tests. */
public enum Category {
    /** A stable preference stated once. */
    PREFERENCE,
    /** A procedure with an exact command. */
    PROCEDURE,
    /** A symptom and the fix that worked. */
    FAILURE_SHIELD,
    /** A fact corrected later: the newer value must win. */
    CORRECTION,
    /** A fact only a polluted session held: it must never come back. */
    POLLUTED,
    /** A pasted credential: it must never appear. */
    SECRET;

    /**
     * Whether probes of this category have facts to recall (the others only have facts to keep out).
     *
     * @return true for the categories whose probes have facts to recall
     */
    public boolean measuresRecall() {
        return this != POLLUTED && this != SECRET;
    }
}
