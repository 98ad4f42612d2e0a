package dev.mnemo.spi;

import dev.mnemo.GoalStatus;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Codex's goal status rules, written once as pure functions over a goal's row, for every
 * {@link GoalStore}:
 * <ul>
 *   <li>a goal created or replaced starts active, or budget-limited when its usage already reaches
 *       its budget (a budget of 0 is limited at once);</li>
 *   <li>a budget-limited goal asked to pause or block stays budget-limited (its limit is the more
 *       telling state); asked to become active while over budget, it stays budget-limited;</li>
 *   <li>usage is charged to active and budget-limited goals only; an active goal whose usage
 *       reaches its budget becomes budget-limited.</li>
 * </ul>
 */
public final class GoalRules {

    /** Codex's {@code MAX_THREAD_GOAL_OBJECTIVE_CHARS}. */
    public static final int MAX_OBJECTIVE_CHARS = 4_000;

    private GoalRules() {}

    /**
     * The objective, checked: not blank, at most {@value #MAX_OBJECTIVE_CHARS} characters.
     *
     * @param objective the goal's objective as given
     * @return {@code objective}, unchanged
     * @throws IllegalArgumentException when it is blank or too long
     */
    public static String checkObjective(String objective) {
        Objects.requireNonNull(objective, "objective");
        if (objective.isBlank()) {
            throw new IllegalArgumentException("a goal's objective must not be blank");
        }
        if (objective.length() > MAX_OBJECTIVE_CHARS) {
            throw new IllegalArgumentException("a goal's objective must be at most " + MAX_OBJECTIVE_CHARS
                    + " characters, was " + objective.length());
        }
        return objective;
    }

    /**
     * The budget, checked: absent, or not negative.
     *
     * @param tokenBudget the goal's token budget; empty for none
     * @return {@code tokenBudget}, unchanged
     * @throws IllegalArgumentException when it is negative
     */
    public static OptionalLong checkBudget(OptionalLong tokenBudget) {
        Objects.requireNonNull(tokenBudget, "tokenBudget");
        if (tokenBudget.isPresent() && tokenBudget.getAsLong() < 0) {
            throw new IllegalArgumentException("a goal's token budget must not be negative, was "
                    + tokenBudget.getAsLong());
        }
        return tokenBudget;
    }

    /**
     * Whether {@code tokensUsed} has reached the budget.
     *
     * @param tokenBudget the goal's token budget; empty for none, which is never reached
     * @param tokensUsed the tokens charged to the goal so far
     * @return true when a budget is set and {@code tokensUsed} is at least that budget
     */
    public static boolean overBudget(OptionalLong tokenBudget, long tokensUsed) {
        return tokenBudget.isPresent() && tokensUsed >= tokenBudget.getAsLong();
    }

    /**
     * The status of a goal just created or replaced.
     *
     * @param tokenBudget the goal's token budget; empty for none
     * @param tokensUsed the tokens already charged to the goal
     * @return {@code BUDGET_LIMITED} when over budget, otherwise {@code ACTIVE}
     */
    public static GoalStatus created(OptionalLong tokenBudget, long tokensUsed) {
        return overBudget(tokenBudget, tokensUsed) ? GoalStatus.BUDGET_LIMITED : GoalStatus.ACTIVE;
    }

    /**
     * The status a goal takes when {@code requested} is asked of it.
     *
     * @param current the goal's status now
     * @param requested the status asked for
     * @param tokenBudget the goal's token budget; empty for none
     * @param tokensUsed the tokens charged to the goal so far
     * @return the status the goal takes: {@code requested}, or {@code BUDGET_LIMITED} by the rules above
     */
    public static GoalStatus requested(GoalStatus current, GoalStatus requested, OptionalLong tokenBudget,
            long tokensUsed) {
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(requested, "requested");
        if (current == GoalStatus.BUDGET_LIMITED
                && (requested == GoalStatus.PAUSED || requested == GoalStatus.BLOCKED)) {
            return GoalStatus.BUDGET_LIMITED;
        }
        if (requested == GoalStatus.ACTIVE && overBudget(tokenBudget, tokensUsed)) {
            return GoalStatus.BUDGET_LIMITED;
        }
        return requested;
    }

    /**
     * Whether usage may be charged to a goal in {@code status}.
     *
     * @param status the goal's status
     * @return true for active and budget-limited goals
     */
    public static boolean chargeable(GoalStatus status) {
        return status == GoalStatus.ACTIVE || status == GoalStatus.BUDGET_LIMITED;
    }

    /**
     * The status after usage was charged and the total is {@code tokensUsed}.
     *
     * @param current the goal's status before the charge
     * @param tokenBudget the goal's token budget; empty for none
     * @param tokensUsed the tokens charged to the goal, this charge included
     * @return {@code BUDGET_LIMITED} for an active goal now over budget, otherwise {@code current}
     */
    public static GoalStatus charged(GoalStatus current, OptionalLong tokenBudget, long tokensUsed) {
        return current == GoalStatus.ACTIVE && overBudget(tokenBudget, tokensUsed) ? GoalStatus.BUDGET_LIMITED
                : current;
    }
}
