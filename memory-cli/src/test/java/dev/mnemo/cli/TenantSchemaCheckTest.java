package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.postgres.TestCluster;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code --postgres} commands only validate the shared schema: on a database nobody migrated, or
 * one behind this Mnemo, each fails saying who migrates it, and no DDL runs (no schema, no table).
 */
class TenantSchemaCheckTest {

    @TempDir
    Path temp;

    private MnemoCliTest.Result mnemo(String... args) {
        return MnemoCliTest.run(temp, null, args);
    }

    @Test
    void aFreshEmptyDatabase_failsClearly_forEveryReadOnlyCommand_andGetsNoSchemaOrTable() throws Exception {
        String url = TestCluster.get().createDatabase("cli_fresh_" + ProcessHandle.current().pid());

        for (String command : new String[] {"threads", "logs", "inputs", "ui"}) {
            MnemoCliTest.Result r = mnemo(command, "--postgres", url, "--tenant", "alice");

            assertThat(r.exitCode()).as(command + ": " + r.err()).isEqualTo(1);
            assertThat(r.err()).as(command).contains("schema mnemo does not exist", "never changes the schema",
                    "migrate it from a writer", "PostgresBackend.builder()");
        }
        assertThat(query(url, "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%'"
                + " AND nspname <> 'information_schema' AND nspname <> 'public'")).isEmpty();
        assertThat(query(url, "SELECT schemaname || '.' || tablename FROM pg_tables"
                + " WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")).isEmpty();
    }

    @Test
    void aSchemaBehindThisMnemo_failsNamingBothVersions_andIsLeftAsItWas() throws Exception {
        String url = TestCluster.get().createDatabase("cli_behind_" + ProcessHandle.current().pid());
        Flyway.configure(getClass().getClassLoader()).dataSource(url, null, null).schemas("mnemo")
                .defaultSchema("mnemo").table("mnemo_schema_history")
                .locations("classpath:dev/mnemo/postgres/migration").target("8").load().migrate();
        List<String> tablesBefore = tables(url);

        MnemoCliTest.Result threads = mnemo("threads", "--postgres", url, "--tenant", "alice");
        MnemoCliTest.Result logs = mnemo("logs", "--postgres", url, "--tenant", "alice");

        assertThat(threads.exitCode()).as(threads.err()).isEqualTo(1);
        assertThat(threads.err()).contains("schema mnemo is at version 8, and this Mnemo needs version",
                "not applied: version 9", "migrate it from a writer");
        assertThat(logs.exitCode()).as(logs.err()).isEqualTo(1);
        assertThat(logs.err()).contains("is at version 8");
        assertThat(tables(url)).isEqualTo(tablesBefore);
        assertThat(query(url, "SELECT max(version::int)::text FROM mnemo.mnemo_schema_history")).containsExactly("8");
    }

    private static List<String> tables(String url) throws Exception {
        return query(url, "SELECT schemaname || '.' || tablename FROM pg_tables"
                + " WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1");
    }

    private static List<String> query(String url, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            while (row.next()) {
                rows.add(row.getString(1));
            }
        }
        return rows;
    }
}
