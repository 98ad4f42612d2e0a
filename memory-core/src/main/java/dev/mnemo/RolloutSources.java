package dev.mnemo;

import dev.mnemo.internal.rollout.CodexSessionsSource;
import dev.mnemo.spi.RolloutSource;
import java.nio.file.Path;
import java.util.Objects;

/** Ready-made {@link RolloutSource}s. */
public final class RolloutSources {

    private RolloutSources() {}

    /**
     * Codex CLI's own sessions folder (usually {@code ~/.codex/sessions}), read-only: its rollouts
     * are registered as threads and may become memories; nothing is ever written there. Both
     * layouts are read: Codex's {@code YYYY/MM/DD/rollout-*.jsonl} tree and a flat folder of
     * {@code rollout-*.jsonl} files (such as {@code ~/.codex/archived_sessions}); compressed
     * {@code rollout-*.jsonl.zst} files are read too. Scans are incremental within the returned
     * object's lifetime: the first returns every readable rollout, later ones only files whose
     * modification time or size changed.
     *
     * @param sessionsDir the sessions folder; a missing folder scans as empty
     * @return a source over that folder
     * @throws NullPointerException when {@code sessionsDir} is null
     */
    public static RolloutSource codex(Path sessionsDir) {
        Objects.requireNonNull(sessionsDir, "sessionsDir");
        return new CodexSessionsSource(sessionsDir);
    }
}
