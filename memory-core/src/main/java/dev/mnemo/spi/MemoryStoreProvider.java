package dev.mnemo.spi;

import java.nio.file.Path;

/** Opens the default {@link MemoryStore}; registered for {@link java.util.ServiceLoader}. */
public interface MemoryStoreProvider {

    /** A short name for error messages, e.g. {@code sqlite}. */
    String name();

    /** Opens (creating if needed) the store that lives in {@code home}. */
    MemoryStore open(Path home);
}
