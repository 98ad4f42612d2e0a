package dev.mnemo;

/** The status of a thread's goal, as Codex models it. */
public enum GoalStatus {
    ACTIVE,
    PAUSED,
    BLOCKED,
    USAGE_LIMITED,
    BUDGET_LIMITED,
    COMPLETE
}
