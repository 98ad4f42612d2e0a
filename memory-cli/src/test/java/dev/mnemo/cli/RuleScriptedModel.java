package dev.mnemo.cli;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.Role;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;

/**
 * A scripted stand-in for a model, for tests only: extraction requests (they carry an output
 * schema) get a fixed memory; the consolidation agent's first turn writes {@code MEMORY.md} and
 * {@code memory_summary.md}, its next turn ends. Records every request. Thread-safe.
 */
final class RuleScriptedModel implements LanguageModel {

    static final String SUMMARY_LINE = "The user keeps a monorepo and runs its tests with pnpm.";

    private final List<ModelRequest> requests = new ArrayList<>();

    @Override
    public synchronized ModelResponse respond(ModelRequest request) {
        requests.add(request);
        TokenUsage usage = new TokenUsage(100, 0, 20, 0);
        if (request.outputSchema().isPresent()) {
            return ModelResponse.ofText("{\"rollout_summary\":\"Refactored a dashboard; tests run with pnpm.\","
                    + "\"rollout_slug\":\"dashboard-refactor\",\"raw_memory\":\"- tests run with pnpm test\"}", usage);
        }
        boolean toolsRan = request.messages().stream().anyMatch(m -> m.role() == Role.TOOL);
        if (toolsRan) {
            return ModelResponse.ofText("Consolidated.", usage);
        }
        return ModelResponse.ofToolCalls(List.of(
                new ToolCall("call-1", "write_file", "{\"path\":\"MEMORY.md\",\"content\":\"# Memory\\n- tests: pnpm test\\n\"}"),
                new ToolCall("call-2", "write_file",
                        "{\"path\":\"memory_summary.md\",\"content\":\"v1\\n" + SUMMARY_LINE + "\\n\"}")), usage);
    }

    synchronized List<ModelRequest> requests() {
        return List.copyOf(requests);
    }
}
