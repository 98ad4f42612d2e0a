package dev.mnemo.it;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's real Codex rollouts ({@code fixtures/codex-rollouts/}, MIT, attribution in its README). */
final class FixturePaths {

    private FixturePaths() {}

    static Path dir() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("fixtures/codex-rollouts");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("fixtures/codex-rollouts not found above " + Path.of("").toAbsolutePath());
    }

    static Path full() {
        return dir().resolve("full");
    }
}
