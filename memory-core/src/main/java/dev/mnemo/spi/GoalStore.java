package dev.mnemo.spi;

import dev.mnemo.ThreadGoals;
import java.time.Duration;

/**
 * Where thread goals are kept ({@code goals.sqlite} for the default store), reached through
 * {@link MemoryStore#goals()}. Implementations keep one row per thread and decide every status
 * with {@link GoalRules}, so two stores never disagree on Codex's rules; they do only what their
 * database must: the compare-and-set on the goal id and the atomic increments, each in one
 * transaction.
 */
public interface GoalStore extends ThreadGoals {

    /**
     * Adds usage to the thread's goal if its id is still {@code expectedGoalId} and its status may
     * be charged ({@link GoalRules#chargeable}); negative amounts count as 0. Crossing the budget
     * turns an active goal {@link dev.mnemo.GoalStatus#BUDGET_LIMITED}.
     *
     * @param threadId the conversation's thread id
     * @param expectedGoalId the id of the goal the usage was spent on
     * @param tokens the tokens spent; negative counts as 0
     * @param time the time spent; negative counts as 0
     * @return false when there is no such goal, its id changed, or it may not be charged
     */
    boolean accountUsage(String threadId, String expectedGoalId, long tokens, Duration time);

    /**
     * Deletes the thread's goal; false when it had none.
     *
     * @param threadId the conversation's thread id
     * @return true when a goal was deleted
     */
    boolean delete(String threadId);
}
