package dev.mnemo.internal.consolidate;

import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentRequest;
import dev.mnemo.spi.ConsolidationAgentResult;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an agent, ours or a plugged-in one, on the calling thread with a time bound: a watchdog task
 * on the engine's executor interrupts the agent once the request's timeout (plus a minute's grace)
 * has passed, and the attempt then fails. The call returns only when the agent has returned, so an
 * agent never keeps writing the memory folder after its attempt was given up (the lease heartbeat
 * goes on meanwhile). If the executor has no thread for the watchdog, the agent runs unbounded.
 */
final class AgentCall {

    static final Duration GRACE = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(AgentCall.class);
    private static final int RUNNING = 0;
    private static final int RETURNED = 1;
    private static final int TIMED_OUT = 2;

    private AgentCall() {}

    static ConsolidationAgentResult run(ConsolidationAgent agent, ConsolidationAgentRequest request, Executor executor) {
        return run(agent, request, executor, GRACE);
    }

    /** As {@link #run(ConsolidationAgent, ConsolidationAgentRequest, Executor)}, with the grace given (for tests). */
    static ConsolidationAgentResult run(ConsolidationAgent agent, ConsolidationAgentRequest request, Executor executor,
            Duration grace) {
        Thread caller = Thread.currentThread();
        AtomicInteger state = new AtomicInteger(RUNNING);
        CountDownLatch returned = new CountDownLatch(1);
        CountDownLatch watchdogDone = new CountDownLatch(1);
        long boundNanos = request.timeout().plus(grace).toNanos();
        try {
            executor.execute(() -> {
                try {
                    if (!returned.await(boundNanos, TimeUnit.NANOSECONDS) && state.compareAndSet(RUNNING, TIMED_OUT)) {
                        caller.interrupt();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    watchdogDone.countDown();
                }
            });
        } catch (RejectedExecutionException e) {
            watchdogDone.countDown();
            LOG.warn("memory phase-2: the executor refused the agent's watchdog; the agent runs without a time bound");
        }
        ConsolidationAgentResult result = null;
        RuntimeException failure = null;
        try {
            result = agent.run(request);
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            returned.countDown();
        }
        if (!state.compareAndSet(RUNNING, RETURNED)) {
            awaitUninterruptibly(watchdogDone);
            Thread.interrupted(); // the watchdog's interrupt was for the agent, not for our caller
            return ConsolidationAgentResult.failed("the agent did not finish within " + request.timeout().toMinutes()
                    + " minutes", result == null ? TokenUsage.ZERO : result.usage());
        }
        if (failure != null) {
            throw failure;
        }
        return result != null ? result : ConsolidationAgentResult.failed("the agent returned no result", TokenUsage.ZERO);
    }

    /** Waits for the watchdog to finish interrupting us; the interrupt flag is cleared right after. */
    private static void awaitUninterruptibly(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // the watchdog's own interrupt; keep waiting for it to be done
            }
        }
    }
}
