package dev.mnemo.internal.rollout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The real Codex rollouts in the repository's {@code fixtures/codex-rollouts/} (MIT; attribution in
 * its README), found by walking up from the working folder.
 */
public final class Fixtures {

    /** The fixture folder; {@code -Dmnemo.fixtures=…} overrides the default location. */
    public static final Path DIR = locate();

    public static final Path SESSION_2026 = DIR.resolve("agent-history-real-session-01.jsonl");
    public static final Path SESSION_META_2025 = DIR.resolve("agentcmd-session-meta.jsonl");
    public static final Path TURN_CONTEXT = DIR.resolve("agentcmd-turn-context.jsonl");
    public static final Path FUNCTION_CALL = DIR.resolve("agentcmd-function-update_plan.jsonl");
    public static final Path FUNCTION_OUTPUT = DIR.resolve("agentcmd-function-output-error.jsonl");

    private Fixtures() {}

    private static Path locate() {
        String override = System.getProperty("mnemo.fixtures");
        if (override != null) {
            return Path.of(override);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("fixtures/codex-rollouts");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("fixtures/codex-rollouts not found above " + Path.of("").toAbsolutePath());
    }

    /** Every {@code .jsonl} file, the five whole sessions under {@code full/} included. */
    public static List<Path> all() {
        try (Stream<Path> files = Files.walk(DIR)) {
            List<Path> all = files.filter(p -> p.toString().endsWith(".jsonl")).sorted().collect(Collectors.toList());
            if (all.size() < 10) {
                throw new IllegalStateException("expected the 10 fixture rollouts in " + DIR + ", found " + all);
            }
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The five whole real sessions. */
    public static List<Path> fullSessions() {
        return all().stream().filter(p -> p.getParent().getFileName().toString().equals("full"))
                .collect(Collectors.toList());
    }
}
