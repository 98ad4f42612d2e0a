package dev.mnemo.internal.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgentRequest;
import dev.mnemo.spi.ConsolidationAgentResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AgentCallTest {

    private static final TokenUsage USAGE = new TokenUsage(1, 0, 1, 0);

    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "given-executor"));

    @AfterEach
    void stopExecutor() {
        executor.shutdownNow();
    }

    private static ConsolidationAgentRequest request(Duration timeout) {
        return new ConsolidationAgentRequest(Path.of("/memories"), "consolidate", "", timeout);
    }

    @Test
    void anAgentPastItsBound_isInterruptedOnTheCallingThreadAndTheAttemptFails() {
        AtomicReference<String> agentThread = new AtomicReference<>();
        ConsolidationAgentResult result = AgentCall.run(req -> {
            agentThread.set(Thread.currentThread().getName());
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS); // only the watchdog's interrupt ends this
                return ConsolidationAgentResult.failed("not interrupted within 30 s", USAGE);
            } catch (InterruptedException e) {
                return ConsolidationAgentResult.completed(USAGE);
            }
        }, request(Duration.ofMillis(20)), executor, Duration.ZERO);

        assertThat(result.completed()).isFalse();
        assertThat(result.error()).hasValueSatisfying(e -> assertThat(e).startsWith("the agent did not finish within"));
        assertThat(result.usage()).isEqualTo(USAGE);
        assertThat(agentThread.get()).isEqualTo(Thread.currentThread().getName());
        assertThat(Thread.currentThread().isInterrupted()).as("the caller's interrupt flag is cleared").isFalse();
    }

    @Test
    void anAgentThatIgnoresTheInterrupt_isAwaitedBeforeTheCallReturns() {
        AtomicBoolean agentReturned = new AtomicBoolean();
        ConsolidationAgentResult result = AgentCall.run(req -> {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.onSpinWait();
            }
            Thread.interrupted(); // ignores it and goes on, as a careless plug-in might
            agentReturned.set(true);
            return ConsolidationAgentResult.completed(USAGE);
        }, request(Duration.ofMillis(20)), executor, Duration.ZERO);

        assertThat(agentReturned).isTrue();
        assertThat(result.completed()).isFalse();
    }

    @Test
    void anAgentWithinItsBound_returnsItsResultAndIsNeverInterruptedLater() throws Exception {
        ConsolidationAgentResult result = AgentCall.run(req -> ConsolidationAgentResult.completed(USAGE),
                request(Duration.ofMillis(20)), executor, Duration.ZERO);
        executor.submit(() -> { }).get(10, TimeUnit.SECONDS); // the watchdog has finished

        assertThat(result).isEqualTo(ConsolidationAgentResult.completed(USAGE));
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void withoutAThreadForTheWatchdog_theAgentStillRuns() {
        executor.shutdown();

        ConsolidationAgentResult result = AgentCall.run(req -> ConsolidationAgentResult.completed(USAGE),
                request(Duration.ofMinutes(1)), executor);

        assertThat(result.completed()).isTrue();
    }
}
