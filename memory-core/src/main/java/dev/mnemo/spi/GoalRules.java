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

    /** The objective, checked: not blank, at most {@value #MAX_OBJECTIVE_CHARS} characters. */
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

    /** The budget, checked: absent, or not negative. */
    public static OptionalLong checkBudget(OptionalLong tokenBudget) {
        Objects.requireNonNull(tokenBudget, "tokenBudget");
        if (tokenBudget.isPresent() && tokenBudget.getAsLong() < 0) {
            throw new IllegalArgumentException("a goal's token budget must not be negative, was "
                    + tokenBudget.getAsLong());
        }
        return tokenBudget;
    }

    /** Whether {@code tokensUsed} has reached the budget. */
    public static boolean overBudget(OptionalLong tokenBudget, long tokensUsed) {
        return tokenBudget.isPresent() && tokensUsed >= tokenBudget.getAsLong();
    }

    /** The status of a goal just created or replaced. */
    public static GoalStatus created(OptionalLong tokenBudget, long tokensUsed) {
        return overBudget(tokenBudget, tokensUsed) ? GoalStatus.BUDGET_LIMITED : GoalStatus.ACTIVE;
    }

    /** The status a goal takes when {@code requested} is asked of it. */
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

    /** Whether usage may be charged to a goal in {@code status}. */
    public static boolean chargeable(GoalStatus status) {
        return status == GoalStatus.ACTIVE || status == GoalStatus.BUDGET_LIMITED;
    }

    /** The status after usage was charged and the total is {@code tokensUsed}. */
    public static GoalStatus charged(GoalStatus current, OptionalLong tokenBudget, long tokensUsed) {
        return current == GoalStatus.ACTIVE && overBudget(tokenBudget, tokensUsed) ? GoalStatus.BUDGET_LIMITED
                : current;
    }
}
