package dev.mnemo.internal.consolidate;

import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentRequest;
import dev.mnemo.spi.ConsolidationAgentResult;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs an agent with a hard bound: any agent, ours or a plugged-in one, is interrupted and the
 * attempt failed once the request's timeout (plus a minute's grace) has passed.
 */
final class AgentCall {

    static final Duration GRACE = Duration.ofMinutes(1);

    private AgentCall() {}

    static ConsolidationAgentResult run(ConsolidationAgent agent, ConsolidationAgentRequest request) {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "mnemo-consolidation-agent");
            t.setDaemon(true);
            return t;
        });
        Future<ConsolidationAgentResult> run = thread.submit(() -> agent.run(request));
        try {
            ConsolidationAgentResult result = run.get(request.timeout().plus(GRACE).toMillis(), TimeUnit.MILLISECONDS);
            if (result == null) {
                return ConsolidationAgentResult.failed("the agent returned no result", TokenUsage.ZERO);
            }
            return result;
        } catch (TimeoutException e) {
            run.cancel(true);
            return ConsolidationAgentResult.failed("the agent did not finish within " + request.timeout().toMinutes()
                    + " minutes", TokenUsage.ZERO);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("the consolidation agent failed", cause);
        } catch (InterruptedException e) {
            run.cancel(true);
            Thread.currentThread().interrupt();
            return ConsolidationAgentResult.failed("interrupted while the agent ran", TokenUsage.ZERO);
        } finally {
            thread.shutdownNow();
        }
    }
}
