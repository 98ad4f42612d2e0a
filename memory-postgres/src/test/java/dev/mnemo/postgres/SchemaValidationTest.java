package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryStoreException;
import dev.mnemo.spi.MemoryStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link PostgresBackend.Builder#validateOnly()}: a reader checks the schema and never changes it.
 * Each test has its own schema in the class's database.
 */
class SchemaValidationTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static PostgresBackend validating(String schema) {
        return PostgresBackend.builder().dataSource(DB.dataSource()).schema(schema).validateOnly().build();
    }

    @Test
    void validateOnly_onAMissingSchema_failsSayingAWriterMigrates_andCreatesNothing() throws SQLException {
        assertThatThrownBy(() -> validating("never_migrated")).isInstanceOf(MemoryStoreException.class)
                .hasMessageContaining("schema never_migrated does not exist")
                .hasMessageContaining("migrate it from a writer");

        assertThat(rows("SELECT nspname FROM pg_namespace WHERE nspname = 'never_migrated'")).isEmpty();
    }

    @Test
    void validateOnly_onASchemaWithoutMnemosHistory_failsAndCreatesNoTable() throws SQLException {
        execute("CREATE SCHEMA someone_elses");

        assertThatThrownBy(() -> validating("someone_elses")).isInstanceOf(MemoryStoreException.class)
                .hasMessageContaining("never migrated by Mnemo");
        assertThat(rows("SELECT tablename FROM pg_tables WHERE schemaname = 'someone_elses'")).isEmpty();
    }

    @Test
    void validateOnly_onASchemaBehind_failsNamingTheVersions_andLeavesItBehind() throws SQLException {
        migrate("behind", "8");
        List<String> tables = rows("SELECT tablename FROM pg_tables WHERE schemaname = 'behind' ORDER BY 1");

        assertThatThrownBy(() -> validating("behind")).isInstanceOf(MemoryStoreException.class)
                .hasMessageContaining("schema behind is at version 8, and this Mnemo needs version")
                .hasMessageContaining("not applied: version 9");
        assertThat(rows("SELECT tablename FROM pg_tables WHERE schemaname = 'behind' ORDER BY 1")).isEqualTo(tables);
        assertThat(rows("SELECT max(version::int)::text FROM behind.mnemo_schema_history")).containsExactly("8");
    }

    @Test
    void validateOnly_onAMigratedSchema_buildsAWorkingBackend() {
        DB.backend("current").close();

        try (PostgresBackend backend = validating("current"); MemoryStore store = backend.store("alice")) {
            assertThat(store.threads()).isEmpty();
        }
    }

    @Test
    void validateOnly_onAnEditedMigration_failsAsDamaged() throws SQLException {
        DB.backend("edited").close();
        execute("UPDATE edited.mnemo_schema_history SET checksum = checksum + 1 WHERE version = '3'");

        assertThatThrownBy(() -> validating("edited")).isInstanceOf(MemoryStoreException.class)
                .hasMessageContaining("does not match this Mnemo's migrations");
    }

    private static void migrate(String schema, String target) {
        Flyway.configure(PostgresBackend.class.getClassLoader()).dataSource(DB.dataSource()).schemas(schema)
                .defaultSchema(schema).table("mnemo_schema_history").locations("classpath:dev/mnemo/postgres/migration")
                .target(target).load().migrate();
    }

    private static void execute(String sql) throws SQLException {
        try (Connection connection = DB.dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static List<String> rows(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DB.dataSource().getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            while (row.next()) {
                rows.add(row.getString(1));
            }
        }
        return rows;
    }
}
