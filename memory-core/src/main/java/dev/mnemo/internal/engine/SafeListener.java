package dev.mnemo.internal.engine;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.Phase1JobReport;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Fans events out to the configured listeners; a listener that throws is logged and skipped. */
final class SafeListener implements MemoryEventListener {

    private static final Logger LOG = LoggerFactory.getLogger(SafeListener.class);

    private final List<MemoryEventListener> listeners;
    /** Whether any listener does something with {@link #memoryOperation}; the read path skips building them otherwise. */
    private final boolean hearsMemoryOperations;

    SafeListener(List<MemoryEventListener> listeners) {
        this.listeners = List.copyOf(listeners);
        this.hearsMemoryOperations = this.listeners.stream().anyMatch(SafeListener::hearsMemoryOperations);
    }

    /**
     * True unless every listener keeps {@link MemoryEventListener}'s empty {@code memoryOperation}:
     * a turn then need not read the clocks and build an operation nobody hears.
     */
    boolean hearsMemoryOperations() {
        return hearsMemoryOperations;
    }

    /** Whether {@code listener}'s class overrides {@code memoryOperation} (assumed so when it cannot be told). */
    private static boolean hearsMemoryOperations(MemoryEventListener listener) {
        try {
            return listener.getClass().getMethod("memoryOperation", MemoryOperation.class).getDeclaringClass()
                    != MemoryEventListener.class;
        } catch (NoSuchMethodException | SecurityException e) {
            return true;
        }
    }

    @Override
    public void startupSkipped(SkipReason reason) {
        each(l -> l.startupSkipped(reason));
    }

    @Override
    public void threadsSynced(int changed) {
        each(l -> l.threadsSynced(changed));
    }

    @Override
    public void phase1BudgetExhausted(ExtractionBudget budget, int deferredJobs) {
        each(l -> l.phase1BudgetExhausted(budget, deferredJobs));
    }

    @Override
    public void phase1Claimed(int count) {
        each(l -> l.phase1Claimed(count));
    }

    @Override
    public void phase1JobFinished(String threadId, Phase1JobOutcome outcome, Optional<String> error) {
        each(l -> l.phase1JobFinished(threadId, outcome, error));
    }

    @Override
    public void phase1JobFinished(Phase1JobReport report) {
        each(l -> l.phase1JobFinished(report));
    }

    @Override
    public void phase2InputsSelected(List<String> threadIds) {
        each(l -> l.phase2InputsSelected(threadIds));
    }

    @Override
    public void consolidationToolCalled(String tool, String target, Optional<String> error) {
        each(l -> l.consolidationToolCalled(tool, target, error));
    }

    @Override
    public void phase2Step(String step) {
        each(l -> l.phase2Step(step));
    }

    @Override
    public void phase2Finished(Phase2Outcome outcome, Optional<String> failure) {
        each(l -> l.phase2Finished(outcome, failure));
    }

    @Override
    public void runStarted(String runId) {
        each(l -> l.runStarted(runId));
    }

    @Override
    public void runFinished(String runId) {
        each(l -> l.runFinished(runId));
    }

    @Override
    public void memoryOperation(MemoryOperation operation) {
        each(l -> l.memoryOperation(operation));
    }

    @Override
    public void memoriesCited(String threadId, List<String> rolloutIds, int counted) {
        each(l -> l.memoriesCited(threadId, rolloutIds, counted));
    }

    @Override
    public void startupFinished(StartupReport report) {
        each(l -> l.startupFinished(report));
    }

    @Override
    public void modelCalled(String phase, TokenUsage usage) {
        each(l -> l.modelCalled(phase, usage));
    }

    private void each(Consumer<MemoryEventListener> event) {
        for (MemoryEventListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                LOG.warn("memory event listener {} failed; ignored", listener.getClass().getName(), e);
            }
        }
    }
}
