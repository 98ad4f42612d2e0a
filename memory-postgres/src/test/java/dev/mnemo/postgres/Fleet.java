package dev.mnemo.postgres;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentResult;
import dev.mnemo.testkit.TestClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Test parts for fleet-mode engines: a settable clock, a scripted extraction model that remembers
 * every {@code FACT: …} line of a rollout, and a consolidation agent that writes the facts of
 * {@code raw_memories.md} into {@code MEMORY.md} and {@code memory_summary.md}. Not models: they
 * only move text so tests can see where it went.
 */
final class Fleet {

    static final Instant START = Instant.parse("2026-06-01T08:00:00Z");
    static final TokenUsage USAGE = new TokenUsage(10, 0, 5, 0);
    private static final Pattern FACT = Pattern.compile("FACT: [A-Za-z0-9 _-]+");

    private Fleet() {
    }

    /**
     * A clock at {@code start} when the wall clock read {@code wallMillis}, running at wall speed:
     * JVMs given the same pair agree on the time.
     */
    static Clock wallClock(Instant start, long wallMillis) {
        return new TestClock(start) {
            @Override
            public Instant instant() {
                return start.plusMillis(System.currentTimeMillis() - wallMillis);
            }
        };
    }

    static MemoriesConfig config() {
        return MemoriesConfig.builder().minRolloutIdleHours(1).maxRolloutsPerStartup(8).build();
    }

    /** Remembers the FACT lines of the rendered rollout (none: no output). */
    static LanguageModel extractionModel() {
        return request -> ModelResponse.ofText(stage1Reply(facts(request)), USAGE);
    }

    static String stage1Reply(List<String> facts) {
        String raw = String.join("; ", facts);
        return "{\"raw_memory\":\"" + raw + "\",\"rollout_summary\":\"" + raw + "\",\"rollout_slug\":null}";
    }

    static List<String> facts(ModelRequest request) {
        Matcher m = FACT.matcher(request.messages().get(0).text());
        return m.results().map(r -> r.group()).distinct().toList();
    }

    /** Writes every FACT line of raw_memories.md into both artifacts. */
    static ConsolidationAgent agent() {
        return request -> {
            try {
                Path root = request.memoryRoot();
                String raw = Files.readString(root.resolve("raw_memories.md"));
                String facts = FACT.matcher(raw).results().map(r -> r.group()).distinct().sorted()
                        .collect(Collectors.joining("\n"));
                Files.writeString(root.resolve("MEMORY.md"), "# Memory\n" + facts + "\n");
                Files.writeString(root.resolve("memory_summary.md"), "v1\n" + facts + "\n");
                return ConsolidationAgentResult.completed(USAGE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** An engine of {@code tenant} on {@code backend}, with the scripted parts and its own cache folder. */
    static MemoryEngine engine(PostgresBackend backend, String tenant, Path cache, Clock clock) {
        return backend.engineBuilder(tenant, cache).config(config()).extractionModel(extractionModel())
                .consolidationAgent(agent()).clock(clock).build();
    }
}
