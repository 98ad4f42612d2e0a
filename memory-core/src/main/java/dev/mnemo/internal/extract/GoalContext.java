package dev.mnemo.internal.extract;

import dev.mnemo.ThreadGoal;
import dev.mnemo.spi.SecretRedactor;
import java.util.Optional;

/**
 * The thread's goal as Phase 1 shows it to the extraction model, beyond Codex (whose memories never
 * read goals): the objective on one line, redacted, and its status, e.g.
 * {@code "ship the 2.0 release" (status: complete)}; {@code none} without a goal. Braces are
 * broken up so an objective cannot pass for a template placeholder.
 */
public final class GoalContext {

    /** What the template says when the thread has no goal. */
    public static final String NONE = "none";

    private GoalContext() {}

    public static String describe(Optional<ThreadGoal> goal, SecretRedactor redactor) {
        if (goal.isEmpty()) {
            return NONE;
        }
        String objective = redactor.redact(goal.get().objective()).replaceAll("\\s+", " ").strip()
                .replace("{{", "{ {").replace("}}", "} }");
        return "\"" + objective + "\" (status: " + goal.get().status().dbValue() + ")";
    }
}
