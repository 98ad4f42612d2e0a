package dev.mnemo;

import java.util.Optional;
import java.util.OptionalLong;

/** Each thread's goal ({@code goals.sqlite}), with Codex's stale-update guard. */
public interface ThreadGoals {

    /**
     * Creates or replaces the thread's goal, active, with a new goal id.
     *
     * @param threadId the thread
     * @param objective what the thread is to achieve
     * @param tokenBudget the most tokens the goal may use; empty for no budget
     * @return the new goal, with usage reset
     */
    ThreadGoal set(String threadId, String objective, OptionalLong tokenBudget);

    /**
     * The thread's goal.
     *
     * @param threadId the thread
     * @return the goal, or empty when none is set
     */
    Optional<ThreadGoal> get(String threadId);

    /**
     * Changes the status if the goal id is still {@code expectedGoalId}; false when it is stale.
     *
     * @param threadId the thread
     * @param expectedGoalId the goal id the caller last read
     * @param status the new status
     * @return true when the status was changed
     */
    boolean updateStatus(String threadId, String expectedGoalId, GoalStatus status);
}
