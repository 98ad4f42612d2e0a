package dev.mnemo.it;

import dev.mnemo.internal.agent.ToolLoopConsolidationAgent;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.testkit.TestClock;
import dev.mnemo.testkit.contract.ConsolidationAgentContract;

/**
 * The published {@link ConsolidationAgentContract} run against the engine's default tool-loop agent,
 * the one {@code MemoryEngine.builder().consolidationModel(..)} drives. It runs here, not in
 * memory-core, because memory-testkit depends on memory-core; the default agent has no public
 * factory, so this test (never main code) names the internal class, with the same two inputs the
 * engine gives it: the consolidation model and the engine's clock.
 */
class ToolLoopConsolidationAgentContractTest extends ConsolidationAgentContract {

    @Override
    protected ConsolidationAgent agent(LanguageModel model, TestClock clock) {
        return new ToolLoopConsolidationAgent(model, clock);
    }
}
