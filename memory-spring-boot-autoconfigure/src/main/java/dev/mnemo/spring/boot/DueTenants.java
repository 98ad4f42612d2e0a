package dev.mnemo.spring.boot;

import dev.mnemo.StartupReport;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which users whose engines are closed have pipeline work due, found without opening their
 * engines: what lets the schedule extract the conversations of a user who never comes back.
 */
interface DueTenants {

    /** A user with work due, as seen at {@code stamp} (what {@link #passed} compares against). */
    record Due(String tenantId, Instant stamp) {}

    /** The user had activity now: their engine opened, or is open. */
    void touch(String tenantId);

    /** Users with work due at {@code now}, oldest first, at most {@code limit}. */
    List<Due> due(Instant now, int limit);

    /**
     * A pass over {@code due}'s engine ended with {@code report}; {@code again} is when more of its
     * work becomes due (a consolidation held back by its cooldown), if known.
     */
    void passed(Due due, StartupReport report, Optional<Instant> again);

    /** What it is, for the log. */
    String describe();
}
