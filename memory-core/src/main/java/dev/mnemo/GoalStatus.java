package dev.mnemo;

import java.util.Locale;

/** The status of a thread's goal, as Codex models it. */
public enum GoalStatus {
    /** The thread is working towards the goal. */
    ACTIVE,
    /** Work on the goal was paused; it may resume. */
    PAUSED,
    /** Work on the goal cannot go on until something outside the thread changes. */
    BLOCKED,
    /** Work stopped because a usage limit (not the goal's own token budget) was reached. */
    USAGE_LIMITED,
    /** The goal spent its token budget; a paused or blocked request leaves it here. */
    BUDGET_LIMITED,
    /** The goal was reached. */
    COMPLETE;

    /**
     * The value stored in a database and sent to the model, as Codex spells it: {@code budget_limited}.
     *
     * @return this constant's name in lower case
     */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The status stored as {@code value}, in any case.
     *
     * @param value a stored status such as {@code budget_limited}, in any case
     * @return the status it names
     * @throws IllegalArgumentException when {@code value} names no status
     */
    public static GoalStatus fromDbValue(String value) {
        for (GoalStatus status : values()) {
            if (status.dbValue().equalsIgnoreCase(value)) {
                return status;
            }
        }
        throw new IllegalArgumentException("no goal status '" + value + "'; the statuses are active, paused, blocked, "
                + "usage_limited, budget_limited and complete");
    }
}
