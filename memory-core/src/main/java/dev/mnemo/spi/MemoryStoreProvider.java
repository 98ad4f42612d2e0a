package dev.mnemo.spi;

import java.nio.file.Path;
import java.util.Optional;

/** Opens the default {@link MemoryStore}; registered for {@link java.util.ServiceLoader}. */
public interface MemoryStoreProvider {

    /**
     * A short name for error messages, e.g. {@code sqlite}.
     *
     * @return the provider's name
     */
    String name();

    /**
     * Opens (creating if needed) the store that lives in {@code home}.
     *
     * @param home the Mnemo home folder
     * @return the open store; the caller closes it
     */
    MemoryStore open(Path home);

    /**
     * Opens (creating if needed) the thread logs kept beside that store in {@code home}.
     *
     * @param home the Mnemo home folder
     * @return the open thread logs; the caller closes them
     * @throws UnsupportedOperationException when this provider keeps no thread logs (the default)
     */
    default ThreadLogStore openThreadLogs(Path home) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no thread logs, so the engine's "
                + "events are not stored per thread");
    }

    /**
     * Opens the existing store in {@code home} for reading only: nothing may be created, migrated
     * or deleted. The default opens it as {@link #open} does, for providers that have no read-only
     * mode.
     *
     * @param home the Mnemo home folder
     * @return the open store; the caller closes it
     */
    default MemoryStore openReadOnly(Path home) {
        return open(home);
    }

    /**
     * The thread logs kept beside the store in {@code home}, opened for reading only, when they
     * exist; empty when they do not (nothing is created) or when this provider keeps none (the
     * default).
     *
     * @param home the Mnemo home folder
     * @return the open thread logs, or empty; the caller closes them
     */
    default Optional<ThreadLogStore> openExistingThreadLogsReadOnly(Path home) {
        return Optional.empty();
    }
}
