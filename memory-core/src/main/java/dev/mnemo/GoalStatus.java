package dev.mnemo;

import java.util.Locale;

/** The status of a thread's goal, as Codex models it. */
public enum GoalStatus {
    ACTIVE,
    PAUSED,
    BLOCKED,
    USAGE_LIMITED,
    BUDGET_LIMITED,
    COMPLETE;

    /** The value stored in a database and sent to the model, as Codex spells it: {@code budget_limited}. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The status stored as {@code value}, in any case.
     *
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
