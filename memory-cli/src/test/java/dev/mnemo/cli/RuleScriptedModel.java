package dev.mnemo.cli;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.testkit.ScriptedLanguageModel;
import java.util.List;

/**
 * A scripted stand-in for a model, for tests only, on the test kit's {@link ScriptedLanguageModel}:
 * extraction requests (they carry an output schema) get a fixed memory; the consolidation agent's
 * first turn writes {@code MEMORY.md} and {@code memory_summary.md}, its next turn ends. Records
 * every request. Thread-safe.
 */
final class RuleScriptedModel implements LanguageModel {

    static final String SUMMARY_LINE = "The user keeps a monorepo and runs its tests with pnpm.";

    private final ScriptedLanguageModel scripted = ScriptedLanguageModel.builder()
            .extractionReply("- tests run with pnpm test", "Refactored a dashboard; tests run with pnpm.",
                    "dashboard-refactor")
            .consolidationWrites("# Memory\n- tests: pnpm test\n", "v1\n" + SUMMARY_LINE + "\n")
            .usage(new TokenUsage(100, 0, 20, 0))
            .build();

    @Override
    public ModelResponse respond(ModelRequest request) {
        return scripted.respond(request);
    }

    List<ModelRequest> requests() {
        return scripted.requests();
    }
}
