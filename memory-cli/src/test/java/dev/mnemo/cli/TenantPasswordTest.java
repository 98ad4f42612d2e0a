package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.postgres.TestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Where {@code --postgres} commands take the database password from, against the throwaway
 * PostgreSQL cluster with one role that must authenticate by password (SCRAM): standard input,
 * {@code PGPASSWORD}, {@code ~/.pgpass} (only when private) or {@code PGPASSFILE}; a password in
 * the URL still works but is warned about.
 */
class TenantPasswordTest {

    private static final String ROLE = "cli_password_reader";
    /** A password with the characters a password file must escape. */
    private static final String PASSWORD = "pa:ss\\word";
    private static final String PGPASS_LINE_PASSWORD = "pa\\:ss\\\\word";

    private static String url;
    private static int port;
    private static String database;

    @TempDir
    static Path caches;

    @TempDir
    Path temp;

    /** A database with tenant alice (one thread), and a role that may only log in with its password. */
    @BeforeAll
    static void databaseWithAPasswordRole() throws Exception {
        database = "cli_password_" + ProcessHandle.current().pid();
        String superuserUrl = TestCluster.get().createDatabase(database);
        port = TestCluster.get().port();
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(superuserUrl);
        try (PostgresBackend backend = PostgresBackend.builder().dataSource(dataSource).build();
                MemoryEngine alice = backend.engineBuilder("alice", caches.resolve("alice")).build();
                RecordedSession session = alice.sessions().start(SessionContext.root("alice-chat"))) {
            session.userMessage("plan the release");
        }
        try (Connection admin = DriverManager.getConnection(superuserUrl);
                Statement statement = admin.createStatement()) {
            statement.execute("DROP ROLE IF EXISTS " + ROLE);
            statement.execute("CREATE ROLE " + ROLE + " LOGIN SUPERUSER PASSWORD '" + PASSWORD + "'");
            Path hba;
            try (ResultSet row = statement.executeQuery("SHOW hba_file")) {
                row.next();
                hba = Path.of(row.getString(1));
            }
            if (!Files.readString(hba).contains(ROLE)) {
                Files.writeString(hba, "host all " + ROLE + " 127.0.0.1/32 scram-sha-256\n" + Files.readString(hba));
            }
            statement.execute("SELECT pg_reload_conf()");
        }
        awaitPasswordRequired();
    }

    /** The reload is a signal to the server: connect until a connection without the password is refused. */
    private static void awaitPasswordRequired() {
        for (int attempt = 0; attempt < 10_000; attempt++) {
            try {
                DriverManager.getConnection(readerUrl(), ROLE, "").close(); // still let in: the reload is not done
            } catch (SQLException refused) {
                return;
            }
        }
        throw new IllegalStateException("the server still lets " + ROLE + " in without a password");
    }

    private static String readerUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=" + ROLE;
    }

    private MnemoCliTest.Result threads(Map<String, String> environment, String stdin, String... extra) {
        List<String> args = new ArrayList<>(List.of("threads", "--postgres", readerUrl(),
                "--tenant", "alice"));
        args.addAll(List.of(extra));
        return MnemoCliTest.run(temp, environment, stdin, null, args.toArray(String[]::new));
    }

    private Path userHome() throws Exception {
        return Files.createDirectories(temp.resolve("user"));
    }

    private Path passwordFile(Path file, String mode) throws Exception {
        Files.writeString(file, "# the test server\n127.0.0.1:" + port + ":" + database + ":" + ROLE + ":"
                + PGPASS_LINE_PASSWORD + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    @Test
    void noPasswordAnywhere_failsSayingWhereOneMayCome() {
        MnemoCliTest.Result r = threads(Map.of(), "");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("no password was found", "PGPASSWORD", "~/.pgpass", "--password-stdin");
    }

    @Test
    void pgpasswordFromTheEnvironment_isUsed_withoutAWarning() {
        MnemoCliTest.Result r = threads(Map.of("PGPASSWORD", PASSWORD), "");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("alice-chat");
        assertThat(r.err()).doesNotContain("warning");
    }

    @Test
    void aPrivatePgpassInTheUsersHome_isUsed_escapesAndAll() throws Exception {
        passwordFile(userHome().resolve(".pgpass"), "rw-------");

        MnemoCliTest.Result r = threads(Map.of(), "");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("alice-chat");
    }

    @Test
    void aPgpassOthersMayRead_isIgnoredWithAWarning() throws Exception {
        Path file = passwordFile(userHome().resolve(".pgpass"), "rw-r--r--");

        MnemoCliTest.Result r = threads(Map.of(), "");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("warning: password file " + file, "ignored", "chmod 0600");
    }

    @Test
    void pgpassfile_namesAnotherPasswordFile() throws Exception {
        Path file = passwordFile(temp.resolve("elsewhere.pgpass"), "rw-------");

        MnemoCliTest.Result r = threads(Map.of("PGPASSFILE", file.toString()), "");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("alice-chat");
    }

    @Test
    void passwordStdin_readsTheFirstLine_forEachKindOfCommand() {
        MnemoCliTest.Result threads = threads(Map.of(), PASSWORD + "\n", "--password-stdin");
        MnemoCliTest.Result inputs = MnemoCliTest.run(temp, Map.of(), PASSWORD + "\n", null, "inputs", "--postgres",
                readerUrl(), "--tenant", "alice", "--password-stdin");
        MnemoCliTest.Result logs = MnemoCliTest.run(temp, Map.of(), PASSWORD + "\n", null, "logs", "--postgres",
                readerUrl(), "--tenant", "alice", "--password-stdin");

        assertThat(threads.exitCode()).as(threads.err()).isZero();
        assertThat(threads.out()).contains("alice-chat");
        assertThat(inputs.exitCode()).as(inputs.err()).isZero();
        assertThat(inputs.out()).contains("plan the release");
        assertThat(logs.exitCode()).as(logs.err()).isZero();
    }

    @Test
    void passwordStdin_beatsPgpassword() {
        MnemoCliTest.Result r = threads(Map.of("PGPASSWORD", "wrong"), PASSWORD + "\n", "--password-stdin");

        assertThat(r.exitCode()).as(r.err()).isZero();
    }

    @Test
    void passwordStdin_withNothingOnStandardInput_isAUsageError() {
        MnemoCliTest.Result r = threads(Map.of(), "", "--password-stdin");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--password-stdin", "no password");
    }

    @Test
    void aPasswordInTheUrl_stillWorks_butIsWarnedAbout() {
        String withPassword = readerUrl() + "&password=pa%3Ass%5Cword";

        MnemoCliTest.Result r = MnemoCliTest.run(temp, Map.of(), "", null, "threads", "--postgres", withPassword,
                "--tenant", "alice");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("alice-chat");
        assertThat(r.err()).contains("warning", "holds the database password", "PGPASSWORD");
    }

    @Test
    void passwordStdin_withoutPostgres_isAUsageError() {
        MnemoCliTest.Result r = MnemoCliTest.run(temp, Map.of(), "x\n", null, "threads", "--password-stdin");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--password-stdin");
    }
}
