package dev.mnemo.it;

import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.spi.MemoryEventListener;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that keeps the failure reasons and Phase 2 steps it hears. */
final class FailureLog implements MemoryEventListener {

    final List<String> errors = new CopyOnWriteArrayList<>();
    final List<String> phase2Steps = new CopyOnWriteArrayList<>();
    final List<Phase2Outcome> phase2Outcomes = new CopyOnWriteArrayList<>();

    @Override
    public void phase1JobFinished(String threadId, Phase1JobOutcome outcome, Optional<String> error) {
        error.ifPresent(errors::add);
    }

    @Override
    public void phase2Step(String step) {
        phase2Steps.add(step);
    }

    @Override
    public void phase2Finished(Phase2Outcome outcome, Optional<String> failure) {
        phase2Outcomes.add(outcome);
        failure.ifPresent(errors::add);
    }
}
