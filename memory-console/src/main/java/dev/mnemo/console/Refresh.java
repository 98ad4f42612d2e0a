package dev.mnemo.console;

import dev.mnemo.MemoryAdmin;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase2Report;
import dev.mnemo.ThreadInfo;
import dev.mnemo.ThreadMemory;
import dev.mnemo.llm.TokenUsage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "Refresh now": {@link MemoryAdmin#consolidateNow()} on the console's executor, one run at a
 * time, so a page can show that it runs and what it did: Phase 2's report, and what Phase 1 did,
 * read from the stored memories before and after (conversations extracted, memories now waiting
 * for approval). The tokens the runs spent are added up. An engine without a consolidation model
 * starts nothing.
 */
final class Refresh {

    private static final Logger LOG = LoggerFactory.getLogger(Refresh.class);

    private final MemoryEngine engine;
    private final MemoryAdmin admin;
    private final ExecutorService executor;
    private final Clock clock;
    private final AtomicReference<State> state = new AtomicReference<>(State.IDLE);

    Refresh(MemoryEngine engine, ExecutorService executor, Clock clock) {
        this.engine = engine;
        this.admin = engine.admin();
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
     * @param extraction what Phase 1 did
     * @param failure the exception's message when it threw; then {@code report} is empty
     */
    record Finished(Instant startedAt, Instant finishedAt, Extraction extraction, Optional<Phase2Report> report,
            Optional<String> failure) {
        Duration took() {
            return Duration.between(startedAt, finishedAt);
        }
    }

    /**
     * What Phase 1 did in a run, as the stored memories show it.
     *
     * @param ran false when the engine has no extraction model
     * @param extracted conversations whose memory is new or renewed
     * @param awaitingApproval of those, the memories now waiting for approval
     */
    record Extraction(boolean ran, int extracted, int awaitingApproval) {
        /** In words: {@code 3 conversations extracted; 1 memory now waiting for approval}. */
        String describe() {
            if (!ran) {
                return "skipped: this engine has no extraction model, so only what was stored is consolidated";
            }
            if (extracted == 0) {
                return "no conversation was due for extraction (each must be idle for six hours first)";
            }
            String line = extracted + " conversation" + (extracted == 1 ? "" : "s") + " extracted";
            if (awaitingApproval > 0) {
                line += "; " + awaitingApproval + " memor" + (awaitingApproval == 1 ? "y" : "ies")
                        + " now waiting for approval on the Pending page";
            }
            return line;
        }
    }

    /**
     * Why a refresh cannot start, in words for the page; empty when it can.
     */
    Optional<String> missing() {
        if (!admin.canConsolidate()) {
            return Optional.of("Refresh now needs a model, and this console's engine has none: nothing was started."
                    + " Start `mnemo ui` with a model (--model, or MNEMO_MODEL with OPENAI_API_KEY; see `mnemo --help`)"
                    + " or give the engine one (MemoryEngine.builder().model(..)).");
        }
        return Optional.empty();
    }

    State state() {
        return state.get();
    }

    /**
     * Starts a run unless one is running; returns false when one already was.
     *
     * @throws IllegalStateException when the engine cannot consolidate ({@link #missing()})
     */
    boolean start() {
        missing().ifPresent(why -> {
            throw new IllegalStateException(why);
        });
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
        Map<String, Instant> before = Map.of();
        Extraction extraction = new Extraction(admin.canExtract(), 0, 0);
        try {
            before = extractedAt(storedMemories());
            report = Optional.of(admin.consolidateNow());
            extraction = extraction(before, storedMemories());
        } catch (RuntimeException e) {
            LOG.warn("refresh now failed", e);
            failure = Optional.of(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        LOG.info("refresh now finished: phase 1 {}; phase 2 {}", extraction.describe(),
                report.map(r -> r.outcome().name()).orElse("not run"));
        Finished finished = new Finished(startedAt, clock.instant(), extraction, report, failure);
        TokenUsage used = report.map(Phase2Report::usage).orElse(TokenUsage.ZERO);
        state.updateAndGet(s -> new State(Optional.empty(), Optional.of(finished), s.spent().plus(used)));
    }

    private Map<String, ThreadMemory> storedMemories() {
        return admin.memories(engine.threads().list().stream().map(ThreadInfo::id).toList());
    }

    private static Map<String, Instant> extractedAt(Map<String, ThreadMemory> memories) {
        Map<String, Instant> at = new HashMap<>();
        memories.forEach((id, memory) -> at.put(id, memory.generatedAt()));
        return at;
    }

    /** Memories that are new or renewed since {@code before}: Phase 1's work in this run. */
    private Extraction extraction(Map<String, Instant> before, Map<String, ThreadMemory> after) {
        int extracted = 0;
        int awaiting = 0;
        for (ThreadMemory memory : after.values()) {
            if (!memory.generatedAt().equals(before.get(memory.threadId()))) {
                extracted++;
                if (memory.awaitingApproval()) {
                    awaiting++;
                }
            }
        }
        return new Extraction(admin.canExtract(), extracted, awaiting);
    }
}
