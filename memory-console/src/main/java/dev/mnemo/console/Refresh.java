package dev.mnemo.console;

import dev.mnemo.MemoryAdmin;
import dev.mnemo.Phase2Report;
import dev.mnemo.llm.TokenUsage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "Refresh now": {@link MemoryAdmin#consolidateNow()} on the console's executor, one run at a
 * time, so a page can show that it runs and what it did. The tokens the runs spent are added up.
 */
final class Refresh {

    private static final Logger LOG = LoggerFactory.getLogger(Refresh.class);

    private final MemoryAdmin admin;
    private final ExecutorService executor;
    private final Clock clock;
    private final AtomicReference<State> state = new AtomicReference<>(State.IDLE);

    Refresh(MemoryAdmin admin, ExecutorService executor, Clock clock) {
        this.admin = admin;
        this.executor = executor;
        this.clock = clock;
    }

    /**
     * Where the refresh stands.
     *
     * @param runningSince when the run in progress started; empty when none runs
     * @param last what the last finished run did
     * @param spent the tokens every finished run spent, added up
     */
    record State(Optional<Instant> runningSince, Optional<Finished> last, TokenUsage spent) {
        static final State IDLE = new State(Optional.empty(), Optional.empty(), TokenUsage.ZERO);

        boolean running() {
            return runningSince.isPresent();
        }
    }

    /**
     * A finished run: its report, or why it could not run.
     *
     * @param failure the exception's message when it threw; then {@code report} is empty
     */
    record Finished(Instant startedAt, Instant finishedAt, Optional<Phase2Report> report, Optional<String> failure) {
        Duration took() {
            return Duration.between(startedAt, finishedAt);
        }
    }

    State state() {
        return state.get();
    }

    /** Starts a run unless one is running; returns false when one already was. */
    boolean start() {
        Instant now = clock.instant();
        State before = state.get();
        if (before.running() || !state.compareAndSet(before, new State(Optional.of(now), before.last(), before.spent()))) {
            return false;
        }
        try {
            executor.execute(() -> run(now));
        } catch (RejectedExecutionException e) {
            state.set(before);
            throw new IllegalStateException("the console is closing; nothing was started", e);
        }
        return true;
    }

    private void run(Instant startedAt) {
        Optional<Phase2Report> report = Optional.empty();
        Optional<String> failure = Optional.empty();
        try {
            report = Optional.of(admin.consolidateNow());
        } catch (RuntimeException e) {
            LOG.warn("refresh now failed", e);
            failure = Optional.of(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        Finished finished = new Finished(startedAt, clock.instant(), report, failure);
        TokenUsage used = report.map(Phase2Report::usage).orElse(TokenUsage.ZERO);
        state.updateAndGet(s -> new State(Optional.empty(), Optional.of(finished), s.spent().plus(used)));
    }
}
