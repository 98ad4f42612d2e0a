package dev.mnemo.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real Codex sessions bundled in the jar (MIT-licensed, see {@link #ATTRIBUTION}): five
 * rollouts recorded with Codex's VS Code extension in September 2025.
 */
final class DemoSessions {

    /** Where the build puts them on the class path. */
    static final String RESOURCE_DIR = "/demo-sessions/";
    /** The attribution and licence notice that travels with them. */
    static final String ATTRIBUTION = "README.md";

    static final List<String> FILES = List.of(
            "rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl",
            "rollout-2025-09-24T20-12-23-01997ea4-a70d-7da3-8c20-c736db82a7c5.jsonl",
            "rollout-2025-09-25T08-02-05-0199812e-64f0-7f73-91fc-095dda01c36e.jsonl",
            "rollout-2025-09-25T09-49-46-01998190-fba6-7f40-9309-dc4e48c5844a.jsonl",
            "rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl");

    private static final Pattern NAME = Pattern.compile(
            "rollout-(\\d{4})-(\\d{2})-(\\d{2})T[\\d-]+-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\.jsonl");

    private DemoSessions() {}

    /** The thread id a bundled file holds (its name ends with it). */
    static String threadId(String file) {
        return match(file).group(4);
    }

    /**
     * Copies the sessions into {@code <home>/sessions/YYYY/MM/DD/} (a file already there is left
     * alone) and the attribution next to them.
     *
     * @return the files copied now
     */
    static List<Path> install(Path home) {
        List<Path> copied = new ArrayList<>();
        Path sessions = home.resolve("sessions");
        try {
            for (String file : FILES) {
                Matcher m = match(file);
                Path target = sessions.resolve(m.group(1)).resolve(m.group(2)).resolve(m.group(3)).resolve(file);
                if (Files.exists(target)) {
                    continue;
                }
                Files.createDirectories(target.getParent());
                copy(file, target);
                copied.add(target);
            }
            Path notice = sessions.resolve("DEMO-SESSIONS-" + ATTRIBUTION);
            if (!Files.exists(notice)) {
                copy(ATTRIBUTION, notice);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the demo sessions into " + sessions + ": " + e.getMessage(), e);
        }
        return copied;
    }

    /** The attribution notice's text. */
    static String attribution() {
        try (InputStream in = open(ATTRIBUTION)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled " + ATTRIBUTION, e);
        }
    }

    private static void copy(String resource, Path target) throws IOException {
        try (InputStream in = open(resource)) {
            Path temp = Files.createTempFile(target.getParent(), ".demo-", ".tmp");
            Files.copy(in, temp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.move(temp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static InputStream open(String resource) throws IOException {
        InputStream in = DemoSessions.class.getResourceAsStream(RESOURCE_DIR + resource);
        if (in == null) {
            throw new IOException("the jar has no bundled " + RESOURCE_DIR + resource + "; rebuild it with mvn package");
        }
        return in;
    }

    private static Matcher match(String file) {
        Matcher m = NAME.matcher(file);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a rollout file name: " + file);
        }
        return m;
    }
}
