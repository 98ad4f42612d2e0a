package dev.mnemo.it;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Homes for the fault suite: recorded sessions old enough to be extracted, and the suite's settings. */
final class TestHomes {

    /** When the seeded sessions were recorded. */
    static final Instant RECORDED = Instant.parse("2026-03-02T08:00:00Z");
    /** When the pipeline runs: past the idle window of the seeded sessions. */
    static final Instant PIPELINE = RECORDED.plus(Duration.ofHours(7));
    /** Past every lease a run at {@link #PIPELINE} takes (leases last one hour). */
    static final Instant AFTER_LEASES = PIPELINE.plus(Duration.ofMinutes(61));

    private TestHomes() {}

    static MemoriesConfig config() {
        return MemoriesConfig.builder().maxRolloutsPerStartup(128).minRolloutIdleHours(1).phase1Concurrency(4).build();
    }

    static Clock at(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    /** Records {@code count} short sessions at {@link #RECORDED}; returns their thread ids. */
    static List<String> seed(Path home, int count, String tag) {
        List<String> ids = new ArrayList<>();
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(config()).model(FaultModel.unused())
                .clock(at(RECORDED)).build()) {
            for (int i = 0; i < count; i++) {
                String id = UUID.nameUUIDFromBytes((tag + "-" + i).getBytes(StandardCharsets.UTF_8)).toString();
                try (RecordedSession session = engine.sessions().start(
                        new SessionContext(id, "app", false, false, Optional.empty()))) {
                    session.userMessage("Please fix the flaky build number " + i + " in module " + tag + ".");
                    session.assistantMessage("The build was flaky because of a shared temp folder; fixed in step " + i);
                }
                ids.add(id);
            }
        }
        return ids;
    }
}
