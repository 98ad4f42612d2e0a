package dev.mnemo.internal.engine;

import dev.mnemo.DeadJob;
import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.Phase1JobReport;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.Stage1Store;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a line in a conversation's thread log when its Phase 1 job dies: after each failed job
 * the store says whether that failure spent the last retry ({@link Stage1Store#deadStage1Job}),
 * so Phase 1 itself needs no knowledge of dead jobs. A store that cannot tell is asked once.
 */
final class DeadJobJournal implements MemoryEventListener {

    private static final Logger LOG = LoggerFactory.getLogger(DeadJobJournal.class);

    /** The thread log's target for Phase 1's lines, as {@code ThreadLogListener} writes them. */
    static final String TARGET = "mnemo::phase1";

    private final Stage1Store stage1;
    private final Consumer<ThreadLogEntry> log;
    private final Clock clock;
    /** False once the store said it cannot list dead jobs. */
    private volatile boolean storeTells = true;

    DeadJobJournal(Stage1Store stage1, Consumer<ThreadLogEntry> log, Clock clock) {
        this.stage1 = stage1;
        this.log = log;
        this.clock = clock;
    }

    @Override
    public void phase1JobFinished(Phase1JobReport report) {
        if (report.outcome() != Phase1JobOutcome.FAILED || !storeTells) {
            return;
        }
        Optional<DeadJob> dead;
        try {
            dead = stage1.deadStage1Job(report.threadId());
        } catch (UnsupportedOperationException e) {
            storeTells = false;
            LOG.debug("the store cannot tell dead Phase 1 jobs, so thread logs do not say when one dies: {}",
                    e.getMessage());
            return;
        }
        dead.ifPresent(job -> {
            LOG.warn("memory stage-1 job for thread {} is dead after {} failures: {}", job.threadId(), job.failures(),
                    job.reason());
            log.accept(new ThreadLogEntry(job.threadId(), clock.instant(), "ERROR", TARGET, died(job)));
        });
    }

    /** The thread log's line for a job that died. */
    static String died(DeadJob job) {
        return "stage-1 job dead after " + job.failures() + " failures: " + job.reason()
                + " (`mnemo jobs retry " + job.threadId() + "` puts it back)";
    }

    /** The thread log's line for a job put back by hand. */
    static String retried(Optional<DeadJob> wasDead) {
        return "stage-1 job retried: claimable now with its retries restored"
                + wasDead.map(job -> " (dead since " + job.failedAt() + ": " + job.reason() + ")").orElse("");
    }
}
