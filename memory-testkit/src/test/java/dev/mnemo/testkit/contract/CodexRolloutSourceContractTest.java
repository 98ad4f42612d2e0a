package dev.mnemo.testkit.contract;

import dev.mnemo.RolloutSources;
import dev.mnemo.spi.RolloutSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@link RolloutSourceContract} run against the Codex sessions source ({@link RolloutSources#codex}),
 * fed with the real Codex sessions in the repository's {@code fixtures/codex-rollouts/} laid out as
 * Codex lays out {@code ~/.codex/sessions} ({@code YYYY/MM/DD/rollout-<time>-<id>.jsonl}).
 */
class CodexRolloutSourceContractTest extends RolloutSourceContract {

    private static final Path FIXTURES = locateFixtures();

    @Override
    protected RolloutSource open(Path folder) {
        return RolloutSources.codex(folder);
    }

    @Override
    protected String addRollout(Path folder, int n) throws IOException {
        Path session = fullSessions().get(n);
        String name = session.getFileName().toString(); // rollout-2025-09-24T19-22-20-<uuid>.jsonl
        Path day = Files.createDirectories(folder.resolve(name.substring(8, 12)).resolve(name.substring(13, 15))
                .resolve(name.substring(16, 18)));
        Files.copy(session, day.resolve(name));
        return name.substring(name.length() - ".jsonl".length() - 36, name.length() - ".jsonl".length());
    }

    @Override
    protected void continueRollout(Path folder, String threadId) throws IOException {
        Path rollout;
        try (Stream<Path> walk = Files.walk(folder)) {
            rollout = walk.filter(p -> p.getFileName().toString().endsWith(threadId + ".jsonl")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no rollout of " + threadId + " under " + folder));
        }
        Files.writeString(rollout, """
                {"timestamp":"2025-09-30T10:00:00.000Z","type":"response_item","payload":{"type":"message",\
                "role":"user","content":[{"type":"input_text","text":"one more thing"}]}}
                """, StandardOpenOption.APPEND);
    }

    @Override
    protected Path addUnreadable(Path folder) throws IOException {
        Path day = Files.createDirectories(folder.resolve("2026/06/05"));
        return Files.copy(FIXTURES.resolve("agentcmd-turn-context.jsonl"),
                day.resolve("rollout-2026-06-05T04-58-20-no-session-meta.jsonl"));
    }

    private static List<Path> fullSessions() throws IOException {
        try (Stream<Path> files = Files.list(FIXTURES.resolve("full"))) {
            return files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
    }

    private static Path locateFixtures() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("fixtures/codex-rollouts");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("fixtures/codex-rollouts not found above " + Path.of("").toAbsolutePath());
    }
}
