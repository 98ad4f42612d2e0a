package dev.mnemo.spring.boot;

import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.TokenUsage;

/**
 * Hears each model call an auto-configured engine's pipeline makes (Phase 1, the consolidation
 * agent's turns; from a startup task, a scheduled run or {@code runPhase1}/{@code runPhase2}).
 * {@link MnemoMetrics} counts the tokens with it: no pipeline event carries the usage of each call.
 */
interface ModelCallListener {

    void modelCalled(ModelRequest request, TokenUsage usage);
}
