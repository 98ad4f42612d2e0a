package dev.mnemo;

import java.util.Optional;
import java.util.OptionalLong;

/** Each thread's goal ({@code goals.sqlite}), with Codex's stale-update guard. */
public interface ThreadGoals {

    /** Creates or replaces the thread's goal, active, with a new goal id. */
    ThreadGoal set(String threadId, String objective, OptionalLong tokenBudget);

    Optional<ThreadGoal> get(String threadId);

    /** Changes the status if the goal id is still {@code expectedGoalId}; false when it is stale. */
    boolean updateStatus(String threadId, String expectedGoalId, GoalStatus status);
}
