package dev.mnemo.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL cluster started from the build itself: {@code initdb} into a temp folder,
 * a free port on 127.0.0.1, {@code pg_ctl -w start}, and {@code pg_ctl -m immediate stop} when the
 * test JVM is done (a shutdown hook makes sure of it). One per test JVM, started on first use; the
 * machine's own clusters are never touched.
 *
 * <p>PostgreSQL refuses to run as root. When the build runs as root (CI does), the folder is given
 * to the {@code postgres} system user and every binary runs through {@code runuser -u postgres --}.
 * Binaries come from {@code $PG_BIN}, else the newest {@code /usr/lib/postgresql/<version>/bin}.
 *
 * <p>Public (in this module's test jar) for memory-benchmarks, which starts the same kind of cluster.
 */
public final class TestCluster {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static TestCluster running;

    private final Path bin;
    private final Path base;
    private final Path data;
    private final int port;
    private final boolean asPostgresUser;

    private TestCluster(Path bin, Path base, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.base = base;
        this.data = base.resolve("data");
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    /** The cluster of this JVM, started on the first call. */
    public static synchronized TestCluster get() {
        if (running == null) {
            running = start();
        }
        return running;
    }

    /** A JDBC URL for {@code database} as the superuser {@code postgres} (trust authentication). */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres";
    }

    public int port() {
        return port;
    }

    /** Creates {@code database} (a plain lower-case name) and returns its JDBC URL. */
    public String createDatabase(String database) throws java.sql.SQLException {
        try (java.sql.Connection admin = java.sql.DriverManager.getConnection(jdbcUrl("postgres"));
                java.sql.Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
        }
        return jdbcUrl(database);
    }

    private static TestCluster start() {
        Path bin = findBinaries();
        boolean root = "root".equals(System.getProperty("user.name"));
        IOException lastFailure = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                Path base = Files.createTempDirectory("mnemo-pg-");
                TestCluster cluster = new TestCluster(bin, base, freePort(), root);
                cluster.initAndStart();
                Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop, "mnemo-test-postgres-stop"));
                return cluster;
            } catch (IOException e) {
                lastFailure = e; // most likely the port was taken between probing and binding: try another
            }
        }
        throw new IllegalStateException("could not start a test PostgreSQL cluster", lastFailure);
    }

    private void initAndStart() throws IOException {
        if (asPostgresUser) {
            run(List.of("chown", "-R", "postgres:postgres", base.toString()), false);
        }
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-A", "trust", "-U", "postgres",
                "--no-sync", "-E", "UTF8"), true);
        String options = "-p " + port + " -k " + base + " -c listen_addresses=127.0.0.1 -c fsync=off"
                + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200";
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", base.resolve("server.log").toString(),
                "-w", "-t", "60", "-o", options, "start"), true);
    }

    /** Stops the server at once and deletes its folder; safe to call twice. */
    synchronized void stop() {
        if (!Files.exists(data)) {
            return;
        }
        try {
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"), true);
        } catch (IOException | RuntimeException e) {
            System.err.println("test PostgreSQL in " + base + " did not stop cleanly: " + e.getMessage());
        }
        deleteRecursively(base);
    }

    private void run(List<String> command, boolean asServerUser) throws IOException {
        List<String> full = new ArrayList<>();
        if (asServerUser && asPostgresUser) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
        try {
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", full));
            }
            if (process.exitValue() != 0) {
                String log = Files.exists(base.resolve("server.log"))
                        ? Files.readString(base.resolve("server.log"), StandardCharsets.UTF_8) : "";
                throw new IOException("'" + String.join(" ", full) + "' exited with " + process.exitValue() + ":\n"
                        + new String(output, StandardCharsets.UTF_8) + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", full), e);
        }
    }

    private static Path findBinaries() {
        String fromEnv = System.getenv("PG_BIN");
        if (fromEnv != null && !fromEnv.isBlank()) {
            Path bin = Path.of(fromEnv);
            if (Files.isExecutable(bin.resolve("initdb")) && Files.isExecutable(bin.resolve("pg_ctl"))) {
                return bin;
            }
            throw new IllegalStateException("PG_BIN=" + fromEnv + " has no initdb and pg_ctl");
        }
        Optional<Path> newest = Optional.empty();
        Path versions = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(versions)) {
            try (Stream<Path> children = Files.list(versions)) {
                newest = children.map(version -> version.resolve("bin"))
                        .filter(bin -> Files.isExecutable(bin.resolve("initdb")))
                        .max(Comparator.comparing(bin -> versionNumber(bin.getParent())));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return newest.orElseThrow(() -> new IllegalStateException("memory-postgres's tests start their own"
                + " PostgreSQL server but found no PostgreSQL binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin."
                + " Install them (Debian/Ubuntu: apt-get install postgresql; the default cluster it creates is never"
                + " used) or point PG_BIN at a folder holding initdb and pg_ctl."));
    }

    private static int versionNumber(Path versionFolder) {
        try {
            return Integer.parseInt(versionFolder.getFileName().toString().split("\\.")[0]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void deleteRecursively(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + folder + ": " + e.getMessage());
        }
    }
}
