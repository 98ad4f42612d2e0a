package dev.mnemo.testkit.junit;

import dev.mnemo.internal.agent.ToolLoopConsolidationAgent;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.testkit.TestClock;
import dev.mnemo.testkit.contract.ConsolidationAgentContract;

/**
 * {@link ConsolidationAgentContract} on the engine's default agent, for {@link JUnitVersionsIT} to run
 * under each JUnit version (named so that the build's own test run leaves it to that test; the
 * integration-tests module runs the same contract on every build).
 */
public class DefaultAgentContractRun extends ConsolidationAgentContract {

    @Override
    protected ConsolidationAgent agent(LanguageModel model, TestClock clock) {
        return new ToolLoopConsolidationAgent(model, clock);
    }
}
