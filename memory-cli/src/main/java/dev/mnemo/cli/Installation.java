package dev.mnemo.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Properties;
import picocli.CommandLine;

/**
 * Which build of the CLI is running and how a user starts it again: the version the build wrote
 * into {@code mnemo-version.properties} (what {@code --version} and {@code mnemo mcp} report), and
 * the command a tip may tell the user to paste ({@code mnemo}'s launcher, else {@code java -jar}).
 */
final class Installation {

    private Installation() {}

    /**
     * The command that starts this CLI, for tips a user can paste: the {@code mnemo} launcher the
     * build writes beside {@code mnemo.jar}, else {@code java -jar} with the jar's path, else
     * {@code mnemo} (not run from a jar).
     */
    static String launchCommand() {
        try {
            CodeSource source = MnemoCli.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null) {
                Path jar = Path.of(source.getLocation().toURI());
                if (Files.isRegularFile(jar) && jar.getFileName().toString().endsWith(".jar")) {
                    Path launcher = jar.resolveSibling("mnemo");
                    return Files.isExecutable(launcher) ? quoted(launcher) : "java -jar " + quoted(jar);
                }
            }
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            // not a file location: fall through to the plain name
        }
        return "mnemo";
    }

    private static String quoted(Path path) {
        String text = path.toString();
        return text.matches("[A-Za-z0-9_./:+@=-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
    }

    /** Mnemo's version, as the build wrote it into {@code mnemo-version.properties}. */
    static String version() {
        Properties properties = new Properties();
        try (InputStream in = MnemoCli.class.getResourceAsStream("mnemo-version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version", "unknown");
    }

    /** {@code --version}: the build's version, the one {@code mnemo mcp} reports too. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"mnemo " + version()};
        }
    }
}
