package dev.mnemo.internal.consolidate;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;

/** Consolidation ids: sortable by time and short enough to type, e.g. {@code 20261129T130501Z-3fa9c1}. */
final class ConsolidationIds {

    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private ConsolidationIds() {}

    static String next(Clock clock) {
        return FORMAT.format(clock.instant()) + "-" + String.format("%06x", ThreadLocalRandom.current().nextInt(1 << 24));
    }
}
