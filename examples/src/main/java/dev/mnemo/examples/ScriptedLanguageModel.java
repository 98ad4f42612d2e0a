package dev.mnemo.examples;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.Role;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * NOT A REAL MODEL: canned answers chosen by the kind of request, so the
 * {@link OfflineWalkthrough} can run the whole pipeline offline and in CI. It recognises the three
 * kinds of requests Mnemo and the quickstart agent make:
 * <ul>
 *   <li>a Phase 1 extraction (it carries an output schema): a fixed memory about running tests;</li>
 *   <li>the consolidation agent (it offers {@code write_file}): first writes {@code MEMORY.md} and
 *       {@code memory_summary.md}, then ends;</li>
 *   <li>the agent's chat: an answer that cites {@code MEMORY.md} and the remembered session.</li>
 * </ul>
 * Every reply reports 100 input and 20 output tokens. Thread-safe.
 */
public final class ScriptedLanguageModel implements LanguageModel {

    /** The line the scripted consolidation writes into {@code memory_summary.md}. */
    public static final String SUMMARY_LINE = "- Tests: run `./gradlew test --offline`; the network is blocked in CI.";

    private static final TokenUsage USAGE = new TokenUsage(100, 0, 20, 0);

    private final String citedThreadId;
    private final AtomicInteger calls = new AtomicInteger();

    /** @param citedThreadId the session the chat answer cites as its source */
    public ScriptedLanguageModel(String citedThreadId) {
        this.citedThreadId = Objects.requireNonNull(citedThreadId, "citedThreadId");
    }

    /** How many requests it answered. */
    public int calls() {
        return calls.get();
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        calls.incrementAndGet();
        if (request.outputSchema().isPresent()) {
            return ModelResponse.ofText("""
                    {"rollout_summary":"The user asked how to run the tests; `./gradlew test --offline` worked.",
                     "rollout_slug":"run-tests-offline",
                     "raw_memory":"- run tests with ./gradlew test --offline (CI has no network)"}""", USAGE);
        }
        boolean consolidation = request.tools().stream().anyMatch(t -> t.name().equals("write_file"));
        if (consolidation) {
            boolean wrote = request.messages().stream().anyMatch(m -> m.role() == Role.TOOL);
            if (wrote) {
                return ModelResponse.ofText("Memory folder updated.", USAGE);
            }
            return ModelResponse.ofToolCalls(List.of(
                    new ToolCall("write-1", "write_file", "{\"path\":\"MEMORY.md\",\"content\":"
                            + "\"# Memory\\n\\n## Testing\\n- Run `./gradlew test --offline`.\\n\"}"),
                    new ToolCall("write-2", "write_file", "{\"path\":\"memory_summary.md\",\"content\":\"v1\\n"
                            + SUMMARY_LINE + "\\n\"}")), USAGE);
        }
        return ModelResponse.ofText("Run `./gradlew test --offline`.\n<oai-mem-citation>\n<citation_entries>\n"
                + "MEMORY.md:3-4|note=[how to run the tests]\n</citation_entries>\n<rollout_ids>\n" + citedThreadId
                + "\n</rollout_ids>\n</oai-mem-citation>", USAGE);
    }
}
