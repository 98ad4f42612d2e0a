package dev.mnemo;

import dev.mnemo.spi.RolloutSource;
import java.nio.file.Path;
import java.util.Objects;

/** Ready-made {@link RolloutSource}s. */
public final class RolloutSources {

    private RolloutSources() {}

    /**
     * Codex CLI's own sessions folder (usually {@code ~/.codex/sessions}), read-only: its rollouts
     * are registered as threads and may become memories; nothing is ever written there.
     */
    public static RolloutSource codex(Path sessionsDir) {
        Objects.requireNonNull(sessionsDir, "sessionsDir");
        throw new UnsupportedOperationException(
                "reading Codex sessions folders arrives with the rollout reader (issue #3)");
    }
}
