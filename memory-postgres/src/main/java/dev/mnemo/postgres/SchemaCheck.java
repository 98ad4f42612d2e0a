package dev.mnemo.postgres;

import dev.mnemo.MemoryStoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.ValidateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check {@link PostgresBackend.Builder#validateOnly()} runs instead of a migration: the schema
 * and its history table exist (two catalog reads, before Flyway is asked anything, so nothing is
 * created on an empty database), no migration of this module is pending or failed, and the applied
 * ones match this module's scripts. Runs no DDL.
 */
final class SchemaCheck {

    /** Flyway's history table in Mnemo's schema. */
    static final String HISTORY_TABLE = "mnemo_schema_history";

    /** What every failure ends with: who migrates, since a validating reader never does. */
    static final String HOW_TO_MIGRATE = "A validating reader (such as the mnemo command line) never changes the"
            + " schema: migrate it from a writer, i.e. start the application with this Mnemo version (its"
            + " PostgresBackend.builder()…build(), without validateOnly(), migrates on start), then try again.";

    private static final Logger LOG = LoggerFactory.getLogger(SchemaCheck.class);

    private SchemaCheck() {
    }

    /**
     * Fails unless {@code schema} is at the newest version {@code flyway} knows.
     *
     * @throws MemoryStoreException naming what is missing, behind or damaged, and {@link #HOW_TO_MIGRATE}
     */
    static void requireCurrent(DataSource dataSource, String schema, Flyway flyway) {
        requireHistoryTable(dataSource, schema);
        MigrationInfoService info;
        try {
            info = flyway.info();
        } catch (FlywayException e) {
            throw new MemoryStoreException("cannot read the migration history of Mnemo's PostgreSQL schema " + schema
                    + ": " + e.getMessage(), e);
        }
        MigrationInfo[] all = info.all();
        MigrationInfo failed = Arrays.stream(all).filter(m -> m.getState().isFailed()).findFirst().orElse(null);
        if (failed != null) {
            throw new MemoryStoreException("Mnemo's PostgreSQL schema " + schema + " holds a failed migration ("
                    + describe(failed) + "). " + HOW_TO_MIGRATE);
        }
        MigrationInfo[] pending = info.pending();
        if (pending.length > 0) {
            MigrationInfo current = info.current();
            throw new MemoryStoreException("Mnemo's PostgreSQL schema " + schema + " is at version "
                    + (current == null ? "none" : current.getVersion()) + ", and this Mnemo needs version "
                    + pending[pending.length - 1].getVersion() + " (not applied: "
                    + Arrays.stream(pending).map(SchemaCheck::describe).collect(Collectors.joining(", ")) + "). "
                    + HOW_TO_MIGRATE);
        }
        ValidateResult validation;
        try {
            validation = flyway.validateWithResult();
        } catch (FlywayException e) {
            throw new MemoryStoreException("cannot validate Mnemo's PostgreSQL schema " + schema + ": "
                    + e.getMessage(), e);
        }
        if (!validation.validationSuccessful) {
            throw new MemoryStoreException("Mnemo's PostgreSQL schema " + schema + " does not match this Mnemo's"
                    + " migrations: " + validation.getAllErrorMessages() + " " + HOW_TO_MIGRATE);
        }
        Arrays.stream(all).filter(m -> m.getState() == MigrationState.FUTURE_SUCCESS).reduce((a, b) -> b)
                .ifPresent(newest -> LOG.warn("Mnemo's PostgreSQL schema {} is at version {}, newer than this Mnemo"
                        + " knows; using it as it is", schema, newest.getVersion()));
    }

    /** The schema and its history table exist; read from the catalogs, which creates nothing. */
    private static void requireHistoryTable(DataSource dataSource, String schema) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement("SELECT"
                        + " EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?),"
                        + " EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = ? AND tablename = ?)")) {
            query.setString(1, schema);
            query.setString(2, schema);
            query.setString(3, HISTORY_TABLE);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                if (!row.getBoolean(1)) {
                    throw new MemoryStoreException("Mnemo's PostgreSQL schema " + schema + " does not exist in this"
                            + " database (nothing has migrated it yet). " + HOW_TO_MIGRATE);
                }
                if (!row.getBoolean(2)) {
                    throw new MemoryStoreException("the PostgreSQL schema " + schema + " exists but was never migrated"
                            + " by Mnemo (it has no " + HISTORY_TABLE + " table). " + HOW_TO_MIGRATE);
                }
            }
        } catch (SQLException e) {
            throw new MemoryStoreException("cannot check Mnemo's PostgreSQL schema " + schema + ": " + e.getMessage(),
                    e);
        }
    }

    private static String describe(MigrationInfo migration) {
        return "version " + migration.getVersion() + " " + migration.getDescription();
    }
}
