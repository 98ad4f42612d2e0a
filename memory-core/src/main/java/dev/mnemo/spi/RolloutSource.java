package dev.mnemo.spi;

import dev.mnemo.ThreadInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A place rollouts come from, scanned into the thread registry at startup. Implementations read
 * only; they never write into the folder they scan.
 */
public interface RolloutSource {

    /**
     * A short name for logs and status, e.g. {@code codex:/home/me/.codex/sessions}.
     *
     * @return the source's kind and location
     */
    String name();

    /**
     * Returns the threads whose rollout files are new or changed since this source's previous scan
     * (the first scan returns all). A file that cannot be read, or has no readable
     * {@code session_meta}, is skipped with a warning, never thrown.
     *
     * @return the new and changed threads; empty when nothing changed
     */
    List<ThreadInfo> scan();

    /**
     * Rollout files the last scan saw but could not register, with the reason for each; shown in
     * {@link dev.mnemo.MemoryAdmin#status()}. Empty by default.
     *
     * @return each unreadable file with why; empty when every file was read
     */
    default Map<Path, String> unreadable() {
        return Map.of();
    }
}
