package dev.mnemo.store.sqlite;

import java.time.Instant;

/** The {@code jobs} vocabulary and Codex's constants for it; times in the table are epoch seconds. */
final class JobKinds {

    /** Phase 1 jobs; the job key is the thread id. */
    static final String STAGE1 = "memory_stage1";
    /** The Phase 2 singleton. */
    static final String PHASE2 = "memory_consolidate_global";
    /** The Phase 2 singleton's job key. */
    static final String GLOBAL_KEY = "global";

    static final String RUNNING = "running";
    static final String DONE = "done";
    static final String ERROR = "error";
    static final String PENDING = "pending";

    /** Attempts per rollout version (Phase 1) and the retry budget a Phase 2 enqueue restores. */
    static final int DEFAULT_RETRY_REMAINING = 3;

    private JobKinds() {
    }

    static long seconds(Instant instant) {
        return instant.getEpochSecond();
    }

    static Instant fromSeconds(long epochSeconds) {
        return Instant.ofEpochSecond(epochSeconds);
    }
}
