package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStoreException;
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
 *
 * <p>The password is not meant for the URL (other users see a command line in {@code ps}, and it
 * stays in the shell's history): it comes from {@code --password-stdin}, else {@code PGPASSWORD},
 * else PostgreSQL's password file ({@code PGPASSFILE}, else {@code ~/.pgpass}; see {@link PgPass}).
 * A password in the URL still works, with a warning.
 *
 * <p>The schema is only {@linkplain PostgresBackend.Builder#validateOnly() validated}: these
 * commands never run DDL on the shared database; a schema that is missing or behind fails, saying
 * that the application (the writer) migrates it.
 */
final class TenantOption {

    @Option(names = "--postgres", paramLabel = "JDBC_URL",
            description = "Use one tenant of a PostgreSQL backend instead of a home, e.g. "
                    + "jdbc:postgresql://db:5432/mnemo?user=mnemo (with --tenant). The password comes from "
                    + "--password-stdin, PGPASSWORD or ~/.pgpass (PGPASSFILE), not the URL.")
    String postgres;

    @Option(names = "--tenant", paramLabel = "ID", description = "The tenant (with --postgres).")
    String tenant;

    @Option(names = "--password-stdin", description = "Read the database password from the first line of standard"
            + " input (with --postgres).")
    boolean passwordStdin;

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
        if (passwordStdin && postgres == null) {
            throw new MnemoCli.UsageProblem("--password-stdin is the database password of --postgres, which is missing");
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
        return given() ? openTenant(root, Optional.empty()) : new OpenEngine(root.openExistingEngine(), null, null);
    }

    /**
     * {@link #openExisting}, for commands that only look: the home's engine is read-only
     * ({@link MnemoCli#openReadOnlyEngine()}); a tenant's is opened as for {@link #openExisting}.
     */
    OpenEngine openReadOnly(MnemoCli root) {
        return given() ? openTenant(root, Optional.empty()) : new OpenEngine(root.openReadOnlyEngine(), null, null);
    }

    /** The tenant's engine, with {@code model} when present; requires {@link #given()}. */
    OpenEngine openTenant(MnemoCli root, Optional<LanguageModel> model) {
        PostgresBackend backend = backend(root);
        Path cache = null;
        try {
            cache = Files.createTempDirectory("mnemo-tenant-");
            MemoryEngine.Builder builder = backend.engineBuilder(tenant, cache);
            model.ifPresent(builder::model);
            return new OpenEngine(builder.build(), backend, cache);
        } catch (IOException e) {
            backend.close();
            throw new MnemoCli.Failure("cannot create a local cache folder: " + e.getMessage());
        } catch (RuntimeException e) {
            backend.close();
            if (cache != null) {
                deleteQuietly(cache);
            }
            throw e;
        }
    }

    /**
     * Runs {@code read} on the tenant's state store, without an engine (nothing is started, nothing
     * written); requires {@link #given()}.
     */
    <T> T readStore(MnemoCli root, Function<MemoryStore, T> read) {
        try (PostgresBackend backend = backend(root);
                MemoryStore store = backend.store(tenant)) {
            return read.apply(store);
        }
    }

    /** The backend over the URL and the password found, the schema validated (never migrated). */
    private PostgresBackend backend(MnemoCli root) {
        PGSimpleDataSource dataSource = dataSource(root);
        try {
            return PostgresBackend.builder().dataSource(dataSource).validateOnly().build();
        } catch (MemoryStoreException e) {
            boolean noPassword = dataSource.getPassword() == null || dataSource.getPassword().isEmpty();
            throw new MnemoCli.Failure(e.getMessage() + (noPassword && e.getMessage().contains("password")
                    ? " (no password was found: set PGPASSWORD, add a line for this server to ~/.pgpass, or pipe it"
                            + " to --password-stdin)" : ""));
        }
    }

    /** The data source for {@code --postgres}, with the password from the first place that has one. */
    private PGSimpleDataSource dataSource(MnemoCli root) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        try {
            dataSource.setURL(postgres);
        } catch (IllegalArgumentException e) {
            throw new MnemoCli.UsageProblem("--postgres is not a PostgreSQL JDBC URL: " + e.getMessage());
        }
        String inUrl = dataSource.getPassword();
        if (inUrl != null && !inUrl.isEmpty()) {
            if (passwordStdin) {
                throw new MnemoCli.UsageProblem("the password is in the --postgres URL and --password-stdin: give it"
                        + " once, preferably not in the URL");
            }
            root.warn("the --postgres URL holds the database password, which other users can see (ps) and the shell"
                    + " keeps in its history: use PGPASSWORD, ~/.pgpass or --password-stdin instead");
            return dataSource;
        }
        // The driver would read ~/.pgpass itself when no password is set, whatever the file's permissions:
        // an empty password keeps it from doing so when no source below has one.
        dataSource.setPassword(password(root, dataSource).orElse(""));
        return dataSource;
    }

    /** {@code --password-stdin}, else {@code PGPASSWORD}, else the password file's entry for this connection. */
    private Optional<String> password(MnemoCli root, PGSimpleDataSource dataSource) {
        if (passwordStdin) {
            return Optional.of(root.readPasswordFromStdin());
        }
        String fromEnvironment = root.environment().get("PGPASSWORD");
        if (fromEnvironment != null && !fromEnvironment.isEmpty()) {
            return Optional.of(fromEnvironment);
        }
        String passFile = root.environment().get("PGPASSFILE");
        Path file = passFile != null && !passFile.isEmpty() ? Path.of(passFile) : Path.of(root.userHome(), ".pgpass");
        String[] hosts = dataSource.getServerNames();
        int[] ports = dataSource.getPortNumbers();
        String host = hosts.length == 0 || hosts[0].isEmpty() ? "localhost" : hosts[0];
        String port = ports.length == 0 || ports[0] == 0 ? "5432" : Integer.toString(ports[0]);
        String user = Optional.ofNullable(dataSource.getUser()).filter(u -> !u.isEmpty())
                .or(() -> Optional.ofNullable(root.environment().get("PGUSER")))
                .orElse(System.getProperty("user.name"));
        String database = Optional.ofNullable(dataSource.getDatabaseName()).filter(d -> !d.isEmpty()).orElse(user);
        return PgPass.read(file, root::warn).flatMap(pgpass -> pgpass.password(host, port, database, user));
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
