package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryStatus;
import dev.mnemo.StartupReport;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schedule's visit to users whose engines are closed but whose work is due ({@link DueTenants}):
 * each such user's engine is opened for the pass only ({@link MemoryEngines#visit}: not counted as
 * use, closed right after, never closing another user's engine), its pipeline run to the end, and
 * the marker updated from the outcome. One user after another, on the schedule's thread.
 *
 * <p>Two servers over the same users may both find a user due; the pipeline's own job claims (a
 * Phase 1 claim per conversation, one consolidation lock per user, each with a lease in the user's
 * store) make sure only one of them extracts a conversation or consolidates.
 */
final class DueWorkPass {

    private static final Logger LOG = LoggerFactory.getLogger(DueWorkPass.class);
    /** Set while this pass opens an engine: that opening is the pass's own, not the user's activity. */
    private static final ThreadLocal<Boolean> PASSING = ThreadLocal.withInitial(() -> false);

    private final MemoryEngines users;
    private final DueTenants due;
    private final Clock clock;
    private final int maxPerRun;

    DueWorkPass(MemoryEngines users, DueTenants due, Clock clock, int maxPerRun) {
        this.users = users;
        this.due = due;
        this.clock = clock;
        this.maxPerRun = maxPerRun;
    }

    /**
     * The engine factory, marking each opening as the user's activity, except the openings of this
     * pass (they run on the pass's thread).
     */
    static <T> Function<String, T> marking(DueTenants due, Function<String, T> factory) {
        return tenant -> {
            T engine = factory.apply(tenant);
            if (!PASSING.get()) {
                due.touch(tenant);
            }
            return engine;
        };
    }

    /** Marks every open user's engine as active now (a scheduled visit of open engines calls it). */
    void touch(String tenantId) {
        due.touch(tenantId);
    }

    /** Runs the due users' pipelines; returns how many users were visited. */
    int run() {
        Instant now = clock.instant();
        List<DueTenants.Due> found = due.due(now, maxPerRun);
        if (found.isEmpty()) {
            return 0;
        }
        Set<String> open = users.openTenants();
        int visited = 0;
        for (DueTenants.Due user : found) {
            if (open.contains(user.tenantId())) {
                continue; // its open engine runs its pipeline in the same scheduled run
            }
            PASSING.set(true);
            try {
                Outcome outcome = users.visit(user.tenantId(), engine -> {
                    StartupReport report = engine.admin().startPipeline().completion().join();
                    MemoryStatus status = engine.admin().status();
                    return new Outcome(report, status.phase2NotBefore());
                });
                due.passed(user, outcome.report(), outcome.again());
                visited++;
                LOG.debug("Due memory work of a user whose engine was closed: {}", outcome.report());
            } catch (RuntimeException e) {
                LOG.warn("The due memory work of a user whose engine was closed failed; trying again at the next "
                        + "scheduled run", e);
            } finally {
                PASSING.remove();
            }
        }
        if (visited > 0) {
            LOG.info("Scheduled memory pipeline: ran the due work of {} user(s) whose engines were closed", visited);
        }
        return visited;
    }

    String describe() {
        return due.describe();
    }

    private record Outcome(StartupReport report, Optional<Instant> again) {}
}
