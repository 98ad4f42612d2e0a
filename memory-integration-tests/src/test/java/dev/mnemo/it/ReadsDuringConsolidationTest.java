package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.MemoryTools;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.Role;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a reader outside the engine (such as {@code mnemo mcp}) sees while the engine rewrites the
 * memory folder: consolidations whose agent rewrites {@code MEMORY.md} and
 * {@code memory_summary.md}, then rollbacks that restore them from the history. Every read must
 * show one generation's file whole, never a missing, empty, cut or mixed one: the files are
 * replaced by renaming a finished temporary file over them.
 */
@Timeout(300)
class ReadsDuringConsolidationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Lines per generated file: about 60 KB, under the read tool's 80,000-byte budget, so reads are never cut on purpose. */
    private static final int LINES = 1_500;

    @TempDir
    Path home;

    @Test
    void reads_duringConsolidationsAndRollbacks_alwaysSeeAWholeFile() throws Exception {
        AtomicInteger generation = new AtomicInteger();
        try (Pipeline p = new Pipeline(home)) {
            p.model.consolidation = request -> {
                if (request.messages().get(request.messages().size() - 1).role() == Role.TOOL) {
                    return ModelResponse.ofText("consolidated", ScriptedModel.USAGE);
                }
                int n = generation.incrementAndGet();
                return ModelResponse.ofToolCalls(List.of(
                        ScriptedModel.writeFile("w1", "MEMORY.md", generatedFile("", n)),
                        ScriptedModel.writeFile("w2", "memory_summary.md", generatedFile("v1\n", n))),
                        ScriptedModel.USAGE);
            };
            consolidate(p);
            List<String> consolidations = new ArrayList<>(List.of(p.engine.admin().history().get(0).id()));

            MemoryTools reader = MemoryTools.forFolder(p.memoryRoot());
            AtomicBoolean writing = new AtomicBoolean(true);
            CompletableFuture<Reads> reads = CompletableFuture.supplyAsync(() -> readUntil(reader, writing));
            try {
                for (int i = 0; i < 5; i++) {
                    consolidate(p);
                    consolidations.add(p.engine.admin().history().get(0).id());
                }
                for (int i = 0; i < 20; i++) {
                    p.engine.admin().rollback(consolidations.get(i % consolidations.size()));
                }
            } finally {
                writing.set(false);
            }

            Reads done = reads.get(120, TimeUnit.SECONDS);
            assertThat(done.problems()).as("reads that saw a torn or missing file").isEmpty();
            assertThat(done.whileWriting()).as("reads while the folder was rewritten").isGreaterThan(20);
            assertThat(generation.get()).isEqualTo(6);
        }
    }

    private static void consolidate(Pipeline p) {
        p.recordSession("task " + p.clock.instant());
        p.idle();
        p.engine.admin().runPhase1("current-thread");
        assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
    }

    /** How many rounds of reads ran while the engine wrote, and what any read found wrong. */
    record Reads(int whileWriting, List<String> problems) {}

    /** Reads both files until the writer stops (and at least 50 times). */
    private static Reads readUntil(MemoryTools reader, AtomicBoolean writing) {
        List<String> problems = new ArrayList<>();
        int reads = 0;
        int whileWriting = 0;
        while (writing.get() || reads < 50) {
            if (writing.get()) {
                whileWriting++;
            }
            for (String file : List.of("MEMORY.md", "memory_summary.md")) {
                String answer = reader.call("memories_read", "{\"path\":\"" + file + "\"}");
                String problem = wholenessProblem(file, answer);
                if (problem != null) {
                    problems.add(problem);
                }
            }
            reads++;
        }
        return new Reads(whileWriting, problems);
    }

    /** A generated file: an optional first line, a start line, numbered lines, an end line, all of one generation. */
    static String generatedFile(String firstLine, int generation) {
        StringBuilder text = new StringBuilder(firstLine).append("generation ").append(generation).append(" start\n");
        for (int line = 0; line < LINES; line++) {
            text.append("generation ").append(generation).append(" line ").append(line).append(" of the handbook\n");
        }
        return text.append("generation ").append(generation).append(" end\n").toString();
    }

    private static String wholenessProblem(String file, String answer) {
        JsonNode node;
        try {
            node = JSON.readTree(answer);
        } catch (java.io.IOException e) {
            return file + ": malformed answer " + answer;
        }
        if (node.has("error")) {
            return file + ": " + node.get("error").asText();
        }
        String content = node.path("content").asText();
        String body = file.equals("memory_summary.md") && content.startsWith("v1\n") ? content.substring(3) : content;
        String[] lines = body.split("\n", -1);
        if (lines.length != LINES + 3 || !lines[0].matches("generation \\d+ start")) {
            return file + ": " + lines.length + " lines, starting " + (lines.length > 0 ? lines[0] : "");
        }
        String generation = lines[0].substring(0, lines[0].length() - " start".length());
        if (!generatedFile(file.equals("memory_summary.md") ? "v1\n" : "",
                Integer.parseInt(generation.substring("generation ".length()))).equals(content)) {
            return file + ": not exactly " + generation;
        }
        return null;
    }
}
