package dev.mnemo.internal.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.GoalStatus;
import dev.mnemo.ThreadGoal;
import dev.mnemo.ThreadGoals;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.spi.GoalRules;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The optional goal tools of one thread, as Codex's goal extension offers them: {@code get_goal};
 * {@code create_goal{objective, token_budget?}}, refused while an unfinished goal exists;
 * {@code update_goal{status}}, where the model may only say {@code complete} or {@code blocked}.
 * Offered beside the memory tools when the application enables them. Every result is JSON; a bad
 * call gives {@code {"error": "..."}} and never throws.
 */
public final class GoalTools {

    public static final String GET_GOAL = "get_goal";
    public static final String CREATE_GOAL = "create_goal";
    public static final String UPDATE_GOAL = "update_goal";
    /** The tool names, for routing a call. */
    public static final Set<String> NAMES = Set.of(GET_GOAL, CREATE_GOAL, UPDATE_GOAL);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ThreadGoals goals;
    private final String threadId;

    public GoalTools(ThreadGoals goals, String threadId) {
        this.goals = Objects.requireNonNull(goals, "goals");
        this.threadId = Objects.requireNonNull(threadId, "threadId");
    }

    /** The three specs, in the order Codex registers them. */
    public static List<ToolSpec> specs() {
        ObjectNode none = object();
        ObjectNode create = object();
        ObjectNode createProperties = create.putObject("properties");
        createProperties.putObject("objective").put("type", "string").put("minLength", 1)
                .put("maxLength", GoalRules.MAX_OBJECTIVE_CHARS)
                .put("description", "What this conversation should achieve, in one or two sentences.");
        createProperties.putObject("token_budget").put("type", "integer").put("minimum", 1)
                .put("description", "Optional: the most tokens to spend on it.");
        create.putArray("required").add("objective");
        ObjectNode update = object();
        update.putObject("properties").putObject("status").put("type", "string")
                .put("description", "`complete` when the objective is met; `blocked` when it cannot go on without help.")
                .putArray("enum").add("complete").add("blocked");
        update.putArray("required").add("status");
        return List.of(
                spec(GET_GOAL, "Read this conversation's goal: objective, status, token budget and usage.", none),
                spec(CREATE_GOAL, "Set this conversation's goal. Fails while an unfinished goal exists.", create),
                spec(UPDATE_GOAL, "Mark this conversation's goal complete or blocked.", update));
    }

    /** Runs one call; bad arguments and refusals come back as {@code {"error": ...}}. */
    public String call(String name, String argumentsJson) {
        try {
            JsonNode arguments = argumentsJson.isBlank() ? JSON.createObjectNode() : JSON.readTree(argumentsJson);
            if (arguments == null || !arguments.isObject()) {
                return error("arguments must be a JSON object");
            }
            return switch (name) {
                case GET_GOAL -> get(arguments);
                case CREATE_GOAL -> create(arguments);
                case UPDATE_GOAL -> update(arguments);
                default -> error("unknown goal tool " + name);
            };
        } catch (JsonProcessingException e) {
            return error("arguments are not valid JSON: " + e.getOriginalMessage());
        } catch (IllegalArgumentException e) {
            return error(e.getMessage());
        }
    }

    private String get(JsonNode arguments) {
        allowOnly(arguments, Set.of());
        return goals.get(threadId).map(GoalTools::describe).orElseGet(() -> result(JSON.createObjectNode().putNull("goal")));
    }

    private String create(JsonNode arguments) {
        allowOnly(arguments, Set.of("objective", "token_budget"));
        JsonNode objective = arguments.get("objective");
        if (objective == null || !objective.isTextual()) {
            return error("objective must be a string");
        }
        OptionalLong budget = OptionalLong.empty();
        JsonNode tokenBudget = arguments.get("token_budget");
        if (tokenBudget != null && !tokenBudget.isNull()) {
            if (!tokenBudget.canConvertToLong() || !tokenBudget.isIntegralNumber() || tokenBudget.longValue() < 1) {
                return error("token_budget must be a positive integer");
            }
            budget = OptionalLong.of(tokenBudget.longValue());
        }
        Optional<ThreadGoal> existing = goals.get(threadId);
        if (existing.isPresent() && existing.get().status() != GoalStatus.COMPLETE) {
            return error("this conversation already has an unfinished goal; finish it or ask the user to replace it");
        }
        return describe(goals.set(threadId, GoalRules.checkObjective(objective.textValue()), budget));
    }

    private String update(JsonNode arguments) {
        allowOnly(arguments, Set.of("status"));
        JsonNode status = arguments.get("status");
        if (status == null || !status.isTextual() || !Set.of("complete", "blocked").contains(status.textValue())) {
            return error("status must be \"complete\" or \"blocked\"");
        }
        Optional<ThreadGoal> goal = goals.get(threadId);
        if (goal.isEmpty()) {
            return error("this conversation has no goal");
        }
        GoalStatus wanted = GoalStatus.fromDbValue(status.textValue());
        if (!goals.updateStatus(threadId, goal.get().goalId(), wanted)) {
            return error("the goal was replaced meanwhile; read it again with get_goal");
        }
        return goals.get(threadId).map(GoalTools::describe).orElseGet(() -> error("the goal was deleted meanwhile"));
    }

    private static void allowOnly(JsonNode arguments, Set<String> allowed) {
        Iterator<String> names = arguments.fieldNames();
        while (names.hasNext()) {
            String field = names.next();
            if (!allowed.contains(field)) {
                throw new IllegalArgumentException("unknown argument " + field);
            }
        }
    }

    private static String describe(ThreadGoal goal) {
        ObjectNode node = JSON.createObjectNode();
        ObjectNode g = node.putObject("goal");
        g.put("objective", goal.objective()).put("status", goal.status().dbValue());
        if (goal.tokenBudget().isPresent()) {
            g.put("token_budget", goal.tokenBudget().getAsLong())
                    .put("tokens_remaining", Math.max(0, goal.tokenBudget().getAsLong() - goal.tokensUsed()));
        }
        g.put("tokens_used", goal.tokensUsed()).put("time_used_seconds", goal.timeUsed().toSeconds());
        return result(node);
    }

    private static String error(String message) {
        return result(JSON.createObjectNode().put("error", message));
    }

    private static String result(ObjectNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a goal tool result", e);
        }
    }

    private static ObjectNode object() {
        ObjectNode schema = JSON.createObjectNode();
        schema.put("type", "object").put("additionalProperties", false);
        schema.putObject("properties");
        return schema;
    }

    private static ToolSpec spec(String name, String description, ObjectNode schema) {
        try {
            return new ToolSpec(name, description, JSON.writeValueAsString(schema));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the schema of " + name, e);
        }
    }
}
