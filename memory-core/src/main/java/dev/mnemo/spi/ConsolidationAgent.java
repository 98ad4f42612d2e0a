package dev.mnemo.spi;

/**
 * Rewrites the memory folder during Phase 2: reads {@code phase2_workspace_diff.md}, the synced
 * inputs and the current artifacts, and writes {@code MEMORY.md}, {@code memory_summary.md} and
 * {@code skills/}. It must stay inside {@link ConsolidationAgentRequest#memoryRoot()}.
 *
 * <p>Called on the startup task's thread and awaited; it should return by the request's timeout.
 */
public interface ConsolidationAgent {

    /**
     * Runs one consolidation in {@code request.memoryRoot()}. A run that cannot finish its work
     * returns {@link ConsolidationAgentResult#failed} with the tokens spent so far.
     *
     * @param request the folder, prompt, model and timeout of the run
     * @return whether the run completed, its token usage and, if not, why
     */
    ConsolidationAgentResult run(ConsolidationAgentRequest request);
}
