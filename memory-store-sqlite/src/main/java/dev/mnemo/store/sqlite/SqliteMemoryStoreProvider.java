package dev.mnemo.store.sqlite;

import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.MemoryStoreProvider;
import dev.mnemo.spi.ThreadLogStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Objects;

/**
 * Registers {@link SqliteMemoryStore} for {@link java.util.ServiceLoader} under the name
 * {@code sqlite}: the store lives in {@code <home>/mnemo.sqlite}.
 */
public final class SqliteMemoryStoreProvider implements MemoryStoreProvider {

    /** The database file name inside the Mnemo home. */
    public static final String DATABASE_FILE_NAME = "mnemo.sqlite";

    /** Used by {@link java.util.ServiceLoader}. */
    public SqliteMemoryStoreProvider() {
    }

    @Override
    public String name() {
        return "sqlite";
    }

    /** Opens {@code <home>/mnemo.sqlite}, creating {@code home} when it is missing. */
    @Override
    public MemoryStore open(Path home) {
        return SqliteMemoryStore.open(Objects.requireNonNull(home, "home").resolve(DATABASE_FILE_NAME));
    }

    /** Opens an existing {@code <home>/mnemo.sqlite} read-only: nothing created, nothing migrated. */
    @Override
    public MemoryStore openReadOnly(Path home) {
        return SqliteMemoryStore.openReadOnly(Objects.requireNonNull(home, "home").resolve(DATABASE_FILE_NAME));
    }

    /** {@code <home>/logs.sqlite} read-only when it exists; empty when it does not (nothing is created). */
    @Override
    public Optional<ThreadLogStore> openExistingThreadLogsReadOnly(Path home) {
        Path file = Objects.requireNonNull(home, "home").resolve(SqliteThreadLogStore.FILE_NAME);
        return Files.isRegularFile(file) ? Optional.of(SqliteThreadLogStore.openReadOnly(file)) : Optional.empty();
    }

    /** Opens {@code <home>/logs.sqlite}, a file of its own beside the state database. */
    @Override
    public ThreadLogStore openThreadLogs(Path home) {
        return SqliteThreadLogStore.open(Objects.requireNonNull(home, "home").resolve(SqliteThreadLogStore.FILE_NAME));
    }
}
