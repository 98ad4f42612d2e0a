package dev.mnemo.spi;

import java.nio.file.Path;

/** Opens the default {@link MemoryStore}; registered for {@link java.util.ServiceLoader}. */
public interface MemoryStoreProvider {

    /** A short name for error messages, e.g. {@code sqlite}. */
    String name();

    /** Opens (creating if needed) the store that lives in {@code home}. */
    MemoryStore open(Path home);

    /**
     * Opens (creating if needed) the thread logs kept beside that store in {@code home}.
     *
     * @throws UnsupportedOperationException when this provider keeps no thread logs (the default)
     */
    default ThreadLogStore openThreadLogs(Path home) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no thread logs, so the engine's "
                + "events are not stored per thread");
    }
}
