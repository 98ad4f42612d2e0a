package dev.mnemo.internal.rollout;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/**
 * Codex-compressed ({@code zstd -3}) copies of real fixtures, in the test resources'
 * {@code codex-rollouts-zst/} (how each was made: its README).
 */
public final class CompressedFixtures {

    /** The whole session {@code full/rollout-2025-09-25T15-12-14-019982b8-….jsonl}, compressed. */
    public static final Path FULL_SESSION = resource(
            "rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl.zst");
    /** Its uncompressed source. */
    public static final Path FULL_SESSION_PLAIN = Fixtures.DIR.resolve(
            "full/rollout-2025-09-25T15-12-14-019982b8-3422-79e0-8b3b-05abaf4f3c3e.jsonl");
    /** {@code agent-history-real-session-01.jsonl}, compressed. */
    public static final Path SESSION_2026 = resource(
            "rollout-2026-06-05T04-58-20-agent-history-real-session-01.jsonl.zst");
    /** The first 20,000 bytes of {@link #FULL_SESSION}: a compressed rollout cut short. */
    public static final Path TRUNCATED = resource("truncated-rollout.jsonl.zst");

    private CompressedFixtures() {}

    private static Path resource(String name) {
        URL url = CompressedFixtures.class.getResource("/codex-rollouts-zst/" + name);
        if (url == null) {
            throw new IllegalStateException("test resource codex-rollouts-zst/" + name + " is missing");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
