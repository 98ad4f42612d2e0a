package dev.mnemo;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A thread's goal.
 *
 * @param threadId the thread
 * @param goalId regenerated on every create or replace; guards against stale updates
 * @param objective what the thread is for
 * @param status where it stands
 * @param tokenBudget the token budget, if one was set
 * @param tokensUsed tokens spent on it so far
 * @param timeUsed time spent on it so far
 */
public record ThreadGoal(String threadId, String goalId, String objective, GoalStatus status,
        OptionalLong tokenBudget, long tokensUsed, Duration timeUsed) {
    /**
     * Checks the components.
     *
     * @param threadId the thread
     * @param goalId regenerated on every create or replace
     * @param objective what the thread is for
     * @param status where it stands
     * @param tokenBudget the token budget, if one was set
     * @param tokensUsed tokens spent on it so far
     * @param timeUsed time spent on it so far
     * @throws NullPointerException when a component other than {@code tokensUsed} is null
     */
    public ThreadGoal {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(goalId, "goalId");
        Objects.requireNonNull(objective, "objective");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(tokenBudget, "tokenBudget");
        Objects.requireNonNull(timeUsed, "timeUsed");
    }
}
