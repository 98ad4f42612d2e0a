package dev.mnemo.postgres;

import dev.mnemo.MemoryConfigurationException;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.TenantHomes;
import dev.mnemo.spi.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fleet mode: the state, recorded sessions and memory files of many tenants in one PostgreSQL
 * schema, with each tenant's message history, thread goals and thread logs beside them, so any
 * number of application servers can serve any tenant with no shared disk.
 *
 * <pre>{@code
 * PostgresBackend backend = PostgresBackend.builder().dataSource(pool).schema("mnemo").build(); // migrates
 * MemoryEngine engine = backend.engineBuilder(userId, cacheRoot.resolve(...)).model(model).build();
 * }</pre>
 *
 * <p>The {@link DataSource} is the application's pool and stays the application's: {@link #close()}
 * does not close it. Every row is keyed by tenant, and every statement runs in a transaction bound
 * to one tenant (see the module's migrations), so no engine sees another tenant's data.
 */
public final class PostgresBackend implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresBackend.class);
    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    /** Tenant ids longer than this (or holding NUL) are stored as a digest of themselves. */
    private static final int MAX_PLAIN_TENANT_LENGTH = 200;
    private static final String DIGEST_PREFIX = "sha256:";

    private final TenantDatabase database;

    private PostgresBackend(TenantDatabase database) {
        this.database = database;
    }

    /**
     * A builder; {@code dataSource} is required, the schema defaults to {@code mnemo}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * An engine builder for {@code tenantId} with this backend's store, session store and workspace
     * wired in, and {@code localCacheDir} as the engine's home: a local cache (the memory files are
     * materialised under {@code localCacheDir/memories} for the consolidation agent and the read
     * path); nothing there needs to survive, and no two engines may share it.
     * Listeners hear the store by the tenant's id ({@link MemoryEngine.Builder#storeId}). Add a
     * model and whatever else the engine needs, then {@code build()}.
     *
     * @param tenantId any non-blank string; ids that are very long or hold a NUL are stored as
     *     their SHA-256 digest, never rejected and never confused with another id
     * @param localCacheDir the engine's home, a local cache of this tenant only
     * @return an engine builder with the store, session store and workspace set
     */
    public MemoryEngine.Builder engineBuilder(String tenantId, Path localCacheDir) {
        String tenant = tenantKey(tenantId);
        Objects.requireNonNull(localCacheDir, "localCacheDir");
        Phase2Lock phase2Lock = new Phase2Lock();
        return MemoryEngine.builder()
                .home(localCacheDir)
                .storeId(tenantId)
                .store(new PostgresMemoryStore(database, tenant, phase2Lock))
                .sessionStore(new PostgresSessionStore(database, tenant))
                .workspace(new PostgresMemoryWorkspace(database, tenant, localCacheDir.resolve("memories"), phase2Lock,
                        Clock.systemUTC()));
    }

    /**
     * An engine factory for {@link dev.mnemo.MemoryEngines.Builder#engineFactory}: each tenant's
     * engine comes from {@link #engineBuilder}, its local cache in its own folder under
     * {@code cacheRoot} ({@link TenantHomes#home}), configured by {@code configure} (model, config,
     * listeners…).
     *
     * <pre>{@code
     * MemoryEngines engines = MemoryEngines.builder()
     *         .engineFactory(backend.engineFactory(Path.of("/var/cache/mnemo"), builder -> builder.model(model)))
     *         .build();
     * }</pre>
     *
     * @param cacheRoot the folder under which each tenant's local cache lies
     * @param configure what else each tenant's engine builder gets (model, config, listeners…)
     * @return the factory, from a tenant id to its built engine
     */
    public Function<String, MemoryEngine> engineFactory(Path cacheRoot, UnaryOperator<MemoryEngine.Builder> configure) {
        Objects.requireNonNull(cacheRoot, "cacheRoot");
        Objects.requireNonNull(configure, "configure");
        return tenantId -> configure.apply(engineBuilder(tenantId, TenantHomes.home(cacheRoot, tenantId))).build();
    }

    /**
     * The state store of one tenant, for tools and maintenance outside an engine (an engine built by
     * {@link #engineBuilder} has its own). The caller closes it; closing releases nothing shared.
     *
     * @param tenantId the tenant, as given to {@link #engineBuilder}
     * @return that tenant's state store
     */
    public MemoryStore store(String tenantId) {
        return new PostgresMemoryStore(database, tenantKey(tenantId), new Phase2Lock());
    }

    /**
     * The tenants with conversations due for extraction (Phase 1) at {@code now}, oldest due first,
     * at most {@code limit}: one read-only query over every tenant's threads, stage-1 outputs and
     * jobs, so a schedule can open only the engines that have work. A thread is due when it is
     * enabled, unarchived, has a first message, comes from one of {@code sources}, was last updated
     * between {@code maxAge} and {@code minIdle} ago (or less than {@code minIdle} ago when the
     * application ended it since: {@link dev.mnemo.spi.Stage1ClaimParams#passesIdleGate}), and neither its stored memory nor its last
     * successful extraction covers that update, and no live claim or retry backoff holds it (the
     * rules of the Phase 1 claim, which still decides). Tenants whose ids are stored as a digest
     * (ids longer than 200 characters or with a NUL) cannot be named back and are left out.
     *
     * @param now the time the due rules are applied at
     * @param minIdle how long a thread must have been idle ({@code min_rollout_idle_hours})
     * @param maxAge how recent its last update must be ({@code max_rollout_age_days})
     * @param sources the thread sources that are extracted
     * @param limit the most tenants returned
     * @return the ids of the tenants with due work, oldest due first
     */
    public List<String> tenantsWithDueExtraction(Instant now, Duration minIdle,
            Duration maxAge, List<String> sources, int limit) {
        long nowMs = now.toEpochMilli();
        return database.readAcrossTenants("find tenants with due extractions", connection -> {
            try (PreparedStatement query = connection.prepareStatement(DUE_EXTRACTION)) {
                query.setArray(1, connection.createArrayOf("text", sources.toArray()));
                query.setLong(2, nowMs - maxAge.toMillis());
                query.setLong(3, nowMs - minIdle.toMillis());
                query.setLong(4, now.getEpochSecond());
                query.setLong(5, now.getEpochSecond());
                query.setInt(6, limit);
                List<String> tenants = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        String tenant = rows.getString(1);
                        if (!tenant.startsWith(DIGEST_PREFIX)) {
                            tenants.add(tenant);
                        }
                    }
                }
                return tenants;
            }
        });
    }

    /** Binds: sources, oldest update (ms), newest update (ms), now (s), now (s), limit. */
    private static final String DUE_EXTRACTION = """
            SELECT t.tenant_id FROM tenant_threads t
            WHERE t.archived = 0 AND t.preview <> '' AND t.source = ANY (?) AND t.memory_mode = 'enabled'
                AND t.updated_at_ms >= ? AND (t.updated_at_ms <= ? OR t.ended_at_ms >= t.updated_at_ms)
                AND NOT EXISTS (SELECT 1 FROM tenant_stage1_outputs so
                    WHERE so.tenant_id = t.tenant_id AND so.thread_id = t.id
                    AND so.source_updated_at >= (t.updated_at_ms - ((t.updated_at_ms % 1000) + 1000) % 1000) / 1000)
                AND NOT EXISTS (SELECT 1 FROM tenant_jobs j
                    WHERE j.tenant_id = t.tenant_id AND j.kind = 'memory_stage1' AND j.job_key = t.id
                    AND (COALESCE(j.last_success_watermark, -1)
                            >= (t.updated_at_ms - ((t.updated_at_ms % 1000) + 1000) % 1000) / 1000
                        OR (j.status = 'running' AND j.lease_until IS NOT NULL AND j.lease_until > ?)
                        OR (COALESCE(j.input_watermark, -1)
                                >= (t.updated_at_ms - ((t.updated_at_ms % 1000) + 1000) % 1000) / 1000
                            AND ((j.retry_at IS NOT NULL AND j.retry_at > ?) OR j.retry_remaining <= 0))))
            GROUP BY t.tenant_id
            ORDER BY MIN(t.updated_at_ms), t.tenant_id
            LIMIT ?
            """;

    TenantDatabase database() {
        return database;
    }

    /**
     * The schema this backend uses.
     *
     * @return the schema's name
     */
    public String schema() {
        return database.schema();
    }

    /**
     * Stops the backend's background work: vacuums queued after forgets are dropped and a running
     * one is cancelled (autovacuum reclaims those rows later); waits a few seconds at most. The
     * pool is the application's and stays open; engines built from this backend close themselves,
     * and a forget after this point vacuums nothing.
     */
    @Override
    public void close() {
        database.close();
        LOG.debug("closed PostgreSQL backend on schema {}", database.schema());
    }

    static String tenantKey(String tenantId) {
        Objects.requireNonNull(tenantId, "tenantId");
        if (tenantId.isBlank()) {
            throw new IllegalArgumentException("tenantId must not be blank, was '" + tenantId + "'");
        }
        if (tenantId.length() <= MAX_PLAIN_TENANT_LENGTH && tenantId.indexOf('\0') < 0
                && !tenantId.startsWith(DIGEST_PREFIX)) {
            return tenantId;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(tenantId.getBytes(StandardCharsets.UTF_8));
            return DIGEST_PREFIX + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * Configures a {@link PostgresBackend}; {@link #build()} migrates the schema, or with
     * {@link #validateOnly()} only checks it.
     */
    public static final class Builder {
        private DataSource dataSource;
        private String schema = "mnemo";
        private boolean validateOnly;

        private Builder() {
        }

        /**
         * The application's connection pool (HikariCP or any other {@link DataSource}).
         *
         * @param dataSource the pool; it stays the application's to close
         * @return this builder
         */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            return this;
        }

        /**
         * The schema holding Mnemo's tables, created when missing; default {@code mnemo}.
         *
         * @param schema a lower-case SQL identifier
         * @return this builder
         * @throws IllegalArgumentException when {@code schema} is no such identifier
         */
        public Builder schema(String schema) {
            Objects.requireNonNull(schema, "schema");
            if (!SCHEMA.matcher(schema).matches()) {
                throw new IllegalArgumentException("schema must be a lower-case SQL identifier"
                        + " ([a-z_][a-z0-9_]*, at most 63 characters), was '" + schema + "'");
            }
            this.schema = schema;
            return this;
        }

        /**
         * Check the schema instead of migrating it: {@link #build()} then runs no DDL (creates no
         * schema, table or history row) and fails unless the schema exists at the newest version
         * this module knows. For tools that share a database with the application that owns the
         * schema (the {@code mnemo} command line): only a writer, whose {@code build()} migrates,
         * changes it. A schema newer than this module is accepted with a warning, as a migrating
         * build accepts it.
         *
         * @return this builder
         */
        public Builder validateOnly() {
            this.validateOnly = true;
            return this;
        }

        /**
         * Migrates the schema to the newest version (Flyway, this module's migrations, history
         * table {@code mnemo_schema_history}), or with {@link #validateOnly()} checks that it is
         * there, and returns the backend.
         *
         * @return the backend
         * @throws MemoryConfigurationException when no data source was given
         * @throws MemoryStoreException when the database cannot be reached or migrated, or, with
         *     {@link #validateOnly()}, when the schema is missing, behind or damaged (the message
         *     says which and how to migrate it)
         */
        public PostgresBackend build() {
            if (dataSource == null) {
                throw new MemoryConfigurationException("PostgresBackend needs a dataSource(..)");
            }
            Flyway flyway = Flyway.configure(PostgresBackend.class.getClassLoader())
                    .dataSource(dataSource)
                    .schemas(schema)
                    .defaultSchema(schema)
                    .table(SchemaCheck.HISTORY_TABLE)
                    .locations("classpath:dev/mnemo/postgres/migration")
                    .load();
            if (validateOnly) {
                SchemaCheck.requireCurrent(dataSource, schema, flyway);
            } else {
                try {
                    flyway.migrate();
                } catch (FlywayException e) {
                    throw new MemoryStoreException("cannot migrate Mnemo's PostgreSQL schema " + schema + ": "
                            + e.getMessage(), e);
                }
            }
            return new PostgresBackend(new TenantDatabase(dataSource, schema));
        }
    }
}
