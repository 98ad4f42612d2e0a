package dev.mnemo.examples;

import dev.mnemo.AssistantMessage;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.testkit.ScriptedLanguageModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.UUID;

/**
 * The whole memory loop, offline, with the test kit's {@link ScriptedLanguageModel} (canned answers
 * chosen by the kind of request, not a real model): a past session is recorded; seven hours later a new session starts, Phase 1 extracts the
 * past one, Phase 2 consolidates it into the memory folder, the memory instructions carry the
 * summary, and the agent's answer cites the memory, which counts as used. CI runs it.
 *
 * <p>{@code java dev.mnemo.examples.OfflineWalkthrough [HOME]} (default: a new temp folder).
 */
public final class OfflineWalkthrough {

    /** When the past session happened; the pipeline runs seven hours later (idle window: six). */
    static final Instant PAST = Instant.parse("2026-03-02T09:00:00Z");
    static final Instant NOW = PAST.plus(Duration.ofHours(7));

    /** The line the scripted consolidation writes into {@code memory_summary.md}. */
    public static final String SUMMARY_LINE = "- Tests: run `./gradlew test --offline`; the network is blocked in CI.";

    /**
     * What the walkthrough saw.
     *
     * @param startup the new session's pipeline run (Phase 1 and Phase 2)
     * @param instructions the memory instructions given to the model
     * @param answer the agent's answer after citation processing
     * @param scriptedModelCalls requests the scripted model answered
     */
    public record Result(StartupReport startup, String instructions, AssistantMessage answer, int scriptedModelCalls) {
        public Result {
            Objects.requireNonNull(startup, "startup");
            Objects.requireNonNull(instructions, "instructions");
            Objects.requireNonNull(answer, "answer");
        }
    }

    private OfflineWalkthrough() {}

    /** Runs the walkthrough in {@code home} (which should be empty). */
    public static Result run(Path home) {
        String pastThread = UUID.randomUUID().toString();
        ScriptedLanguageModel model = scriptedModel(pastThread);
        // 1. A past conversation, recorded as the agent records it.
        try (MemoryEngine memory = engine(home, model, PAST);
                MemorySession past = memory.openSession(SessionContext.root(pastThread))) {
            past.userMessage("How do I run the tests here? The network is blocked.");
            past.assistantMessage("Use `./gradlew test --offline`; it passed.");
            past.startupTask().completion().join(); // nothing to extract yet: this conversation is the current one
        }
        // 2. Later: a new session starts; its startup task extracts and consolidates the past one.
        try (MemoryEngine memory = engine(home, model, NOW);
                QuickstartAgent agent = new QuickstartAgent(memory, model, UUID.randomUUID().toString())) {
            StartupReport startup = agent.startup().completion().join();
            String instructions = agent.memoryInstructions();
            // 3. The agent answers from memory and cites it; the citation counts as a use.
            AssistantMessage answer = agent.ask("How do I run the tests?");
            return new Result(startup, instructions, answer, model.calls());
        }
    }

    /**
     * NOT A REAL MODEL. Phase 1 gets a fixed memory about running tests; the consolidation agent
     * writes {@code MEMORY.md} and {@code memory_summary.md}, then ends; the agent's chat gets an
     * answer that cites {@code MEMORY.md} and the remembered session.
     */
    private static ScriptedLanguageModel scriptedModel(String citedThreadId) {
        return ScriptedLanguageModel.builder()
                .extractionReply("- run tests with ./gradlew test --offline (CI has no network)",
                        "The user asked how to run the tests; `./gradlew test --offline` worked.", "run-tests-offline")
                .consolidationWrites("# Memory\n\n## Testing\n- Run `./gradlew test --offline`.\n",
                        "v1\n" + SUMMARY_LINE + "\n")
                .chatReply("Run `./gradlew test --offline`.\n<oai-mem-citation>\n<citation_entries>\n"
                        + "MEMORY.md:3-4|note=[how to run the tests]\n</citation_entries>\n<rollout_ids>\n"
                        + citedThreadId + "\n</rollout_ids>\n</oai-mem-citation>")
                .usage(new TokenUsage(100, 0, 20, 0))
                .build();
    }

    private static MemoryEngine engine(Path home, ScriptedLanguageModel model, Instant at) {
        return MemoryEngine.builder().home(home).model(model).clock(Clock.fixed(at, ZoneOffset.UTC)).build();
    }

    public static void main(String[] args) throws Exception {
        Path home = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("mnemo-walkthrough-");
        System.out.println("Offline walkthrough with a SCRIPTED model (canned answers, no real model) in " + home);
        Result r = run(home);
        System.out.println("Phase 1: " + r.startup().phase1());
        System.out.println("Phase 2: " + r.startup().phase2());
        System.out.println("Memory instructions: " + r.instructions().length() + " characters, ending with the summary:");
        System.out.println(r.instructions().lines().filter(l -> l.startsWith("- Tests")).findFirst().orElse("(none)"));
        System.out.println("Answer shown to the user: " + r.answer().visibleText());
        System.out.println("Cited: " + r.answer().citation().orElseThrow() + "; memory rows marked used: "
                + r.answer().usageRecorded());
    }
}
