package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.ProjectKeys;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.testkit.ScriptedLanguageModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scoped memory end to end (issue 29), with a real SQLite store, a real git workspace and the real
 * consolidation tool loop driven by a scripted model: two projects with planted, conflicting facts
 * (pnpm and Java 17 against npm and Java 21) and one preference voiced outside any project.
 */
class ScopedMemoryTest {

    private static final String APP = "acme/app";
    private static final String WEB = "acme/web";
    private static final Pattern GROUP = Pattern.compile("^# Scope: (?:project (projects/[^/]+/)|no project).*$",
            Pattern.MULTILINE);
    private static final Pattern RAW = Pattern.compile("^- (.+)$", Pattern.MULTILINE);

    @TempDir
    Path home;

    @Test
    void eachProjectsSession_getsItsOwnFact_neverTheOthers_andASessionInNoProjectGetsNeither() {
        try (Projects p = new Projects(home)) {
            p.consolidate();

            String app = p.instructions(APP);
            String web = p.instructions(WEB);
            String none = p.engine.conversation("nowhere").developerInstructions();

            assertThat(app).contains("uses pnpm", "Java 17", "short answers").doesNotContain("uses npm", "Java 21");
            assertThat(web).contains("uses npm", "Java 21", "short answers").doesNotContain("pnpm", "Java 17");
            assertThat(none).contains("short answers").doesNotContain("pnpm", "uses npm", "Java 17", "Java 21");
            assertThat(p.memoryRoot().resolve("projects/" + ProjectKeys.slug(APP) + "/MEMORY.md")).exists();
        }
    }

    @Test
    void aNoteTakenInProjectA_isInTheVeryNextSessionOfA_beforeAnyConsolidation_andNotInB() {
        try (Projects p = new Projects(home)) {
            p.consolidate();
            int consolidations = p.engine.admin().history().size();
            try (MemorySession a = p.engine.openSession(SessionContext.root("a-1").inProject(APP))) {
                String result = a.callTool("call-1", MemoryTools.ADD_AD_HOC_NOTE,
                        "{\"filename\":\"2026-11-01T09-30-00-switch-to-yarn.md\","
                                + "\"note\":\"The user says: this project now uses yarn, not pnpm.\"}");
                assertThat(result).isEqualTo("{}");
            }

            assertThat(p.instructions(APP)).contains("now uses yarn").contains("not yet consolidated");
            assertThat(p.instructions(WEB)).doesNotContain("yarn");
            assertThat(p.engine.conversation("nowhere").developerInstructions()).doesNotContain("yarn");
            assertThat(p.engine.admin().history()).hasSize(consolidations);
        }
    }

    @Test
    void aNoteFoldedInByAConsolidation_isNoLongerShownAsPending() {
        try (Projects p = new Projects(home)) {
            p.consolidate();
            p.engine.tools().inProject(APP).call(MemoryTools.ADD_AD_HOC_NOTE,
                    "{\"filename\":\"2026-11-01T09-30-00-yarn.md\",\"note\":\"uses yarn now\"}");
            assertThat(p.instructions(APP)).contains("uses yarn now");

            p.clock.advance(java.time.Duration.ofHours(7)); // past the success cooldown
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

            assertThat(p.instructions(APP)).doesNotContain("not yet consolidated");
        }
    }

    @Test
    void citingAProjectFile_countsUsageForTheMemoryBehindIt() {
        try (Projects p = new Projects(home)) {
            p.consolidate();
            String cite = "Use pnpm.\n<oai-mem-citation>\n<citation_entries>\nprojects/" + ProjectKeys.slug(APP)
                    + "/MEMORY.md:1-2|note=[build tool]\n</citation_entries>\n<rollout_ids>\n" + p.appThread
                    + "\n</rollout_ids>\n</oai-mem-citation>";
            try (MemorySession a = p.engine.openSession(SessionContext.root("a-2").inProject(APP))) {
                assertThat(a.assistantMessage(cite).usageRecorded()).isEqualTo(1);
            }
            assertThat(p.store.stage1Output(p.appThread).orElseThrow().usageCount()).isEqualTo(1);
            assertThat(p.store.stage1Output(p.appThread).orElseThrow().project()).contains(APP);
        }
    }

    /** Three recorded sessions (app, web, none) and a consolidation script that files each group where it belongs. */
    private static final class Projects extends Pipeline {
        final String appThread;

        Projects(Path home) {
            super(home, dev.mnemo.MemoriesConfig.builder().maxRolloutsPerStartup(4).build(), null);
            model.extraction = request -> {
                String input = ScriptedModel.extractionInput(request);
                String fact = input.contains("pnpm") ? "the app uses pnpm and Java 17"
                        : input.contains("npm") ? "the web site uses npm and Java 21"
                        : "the user wants short answers";
                return ScriptedModel.reply("- " + fact, "# " + fact, "fact");
            };
            model.consolidation = request -> fileEachGroupWhereItBelongs(request, memoryRoot());
            appThread = recordSession(SessionContext.root(uuidV7(clock.instant())).inProject(APP),
                    "set up the build with pnpm on Java 17");
            recordSession(SessionContext.root(uuidV7(clock.instant())).inProject(WEB),
                    "set up the build with npm on Java 21");
            recordSession("keep your answers short please");
        }

        void consolidate() {
            idle();
            assertThat(engine.admin().runPhase1("current").succeeded()).isEqualTo(3);
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
        }

        String instructions(String project) {
            return engine.conversation(SessionContext.root("reader-" + project.replace('/', '-')).inProject(project))
                    .developerInstructions();
        }

        /**
         * First turn: reads raw_memories.md and writes each scope's facts into its own pair of
         * files (global facts into the global pair) with the agent's write tool; then stops.
         */
        private static ModelResponse fileEachGroupWhereItBelongs(ModelRequest request, Path memoryRoot) {
            if (ScriptedLanguageModel.afterToolResults(request)) {
                return ModelResponse.ofText("consolidated", ScriptedModel.USAGE);
            }
            String raw = read(memoryRoot.resolve("raw_memories.md")); // the test reads the disk; a model would use read_file
            Map<String, StringBuilder> byFolder = new LinkedHashMap<>();
            Matcher group = GROUP.matcher(raw);
            List<int[]> starts = new ArrayList<>();
            List<String> folders = new ArrayList<>();
            while (group.find()) {
                starts.add(new int[] {group.start(), group.end()});
                folders.add(group.group(1) == null ? "" : group.group(1));
            }
            for (int i = 0; i < starts.size(); i++) {
                String section = raw.substring(starts.get(i)[1], i + 1 < starts.size() ? starts.get(i + 1)[0] : raw.length());
                Matcher fact = RAW.matcher(section);
                while (fact.find()) {
                    byFolder.computeIfAbsent(folders.get(i), f -> new StringBuilder()).append("- ").append(fact.group(1))
                            .append('\n');
                }
            }
            List<ToolCall> writes = new ArrayList<>();
            byFolder.forEach((folder, facts) -> {
                writes.add(ScriptedModel.writeFile("m" + writes.size(), folder + "MEMORY.md", "# Facts\n" + facts));
                writes.add(ScriptedModel.writeFile("s" + writes.size(), folder + "memory_summary.md", "v1\n\n" + facts));
            });
            return ModelResponse.ofToolCalls(writes, ScriptedModel.USAGE);
        }

        private static String read(Path file) {
            try {
                return Files.readString(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
