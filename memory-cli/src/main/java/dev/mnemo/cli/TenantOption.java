package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.spi.MemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine.Option;

/**
 * The {@code --postgres JDBC_URL --tenant ID} options (a picocli mixin) of {@code mnemo ui},
 * {@code threads}, {@code logs} and {@code inputs}: one tenant of a PostgreSQL backend instead of
 * a home. The tenant's engine keeps its local cache in a temporary folder, deleted when it closes.
 */
final class TenantOption {

    @Option(names = "--postgres", paramLabel = "JDBC_URL",
            description = "Use one tenant of a PostgreSQL backend instead of a home, e.g. "
                    + "jdbc:postgresql://db:5432/mnemo?user=mnemo&password=… (with --tenant).")
    String postgres;

    @Option(names = "--tenant", paramLabel = "ID", description = "The tenant (with --postgres).")
    String tenant;

    /**
     * Whether a tenant was named.
     *
     * @throws MnemoCli.UsageProblem when one option is given without the other, or the tenant is blank
     */
    boolean given() {
        if ((postgres == null) != (tenant == null) || (tenant != null && tenant.isBlank())) {
            throw new MnemoCli.UsageProblem("--postgres and --tenant go together: the backend's JDBC URL and the"
                    + " tenant whose memory to use");
        }
        return postgres != null;
    }

    /** What to call the memory in messages: {@code tenant alice}. */
    String label() {
        return "tenant " + tenant;
    }

    /**
     * The engine these options name: the tenant's when given, else the existing home's (a missing
     * home fails, as for every read-only command).
     */
    OpenEngine openExisting(MnemoCli root) {
        return given() ? openTenant(Optional.empty()) : new OpenEngine(root.openExistingEngine(), null, null);
    }

    /**
     * {@link #openExisting}, for commands that only look: the home's engine is read-only
     * ({@link MnemoCli#openReadOnlyEngine()}); a tenant's is opened as for {@link #openExisting}.
     */
    OpenEngine openReadOnly(MnemoCli root) {
        return given() ? openTenant(Optional.empty()) : new OpenEngine(root.openReadOnlyEngine(), null, null);
    }

    /** The tenant's engine, with {@code model} when present; requires {@link #given()}. */
    OpenEngine openTenant(Optional<LanguageModel> model) {
        PGSimpleDataSource dataSource = dataSource();
        Path cache;
        try {
            cache = Files.createTempDirectory("mnemo-tenant-");
        } catch (IOException e) {
            throw new MnemoCli.Failure("cannot create a local cache folder: " + e.getMessage());
        }
        PostgresBackend backend = null;
        try {
            backend = PostgresBackend.builder().dataSource(dataSource).build();
            MemoryEngine.Builder builder = backend.engineBuilder(tenant, cache);
            model.ifPresent(builder::model);
            return new OpenEngine(builder.build(), backend, cache);
        } catch (RuntimeException e) {
            if (backend != null) {
                backend.close();
            }
            deleteQuietly(cache);
            throw e;
        }
    }

    /**
     * Runs {@code read} on the tenant's state store, without an engine (nothing is started, nothing
     * written); requires {@link #given()}.
     */
    <T> T readStore(Function<MemoryStore, T> read) {
        try (PostgresBackend backend = PostgresBackend.builder().dataSource(dataSource()).build();
                MemoryStore store = backend.store(tenant)) {
            return read.apply(store);
        }
    }

    private PGSimpleDataSource dataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        try {
            dataSource.setURL(postgres);
        } catch (IllegalArgumentException e) {
            throw new MnemoCli.UsageProblem("--postgres is not a PostgreSQL JDBC URL: " + e.getMessage());
        }
        return dataSource;
    }

    private static void deleteQuietly(Path folder) {
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // a temporary folder; the system cleans it up eventually
        }
    }

    /**
     * An open engine and, for a tenant, its backend and cache folder: closing it closes all three
     * (the engine may have been closed already).
     */
    static final class OpenEngine implements AutoCloseable {
        private final MemoryEngine engine;
        private final PostgresBackend backend;
        private final Path cache;

        private OpenEngine(MemoryEngine engine, PostgresBackend backend, Path cache) {
            this.engine = engine;
            this.backend = backend;
            this.cache = cache;
        }

        MemoryEngine engine() {
            return engine;
        }

        @Override
        public void close() {
            try {
                engine.close();
            } finally {
                if (backend != null) {
                    backend.close();
                    deleteQuietly(cache);
                }
            }
        }
    }
}
