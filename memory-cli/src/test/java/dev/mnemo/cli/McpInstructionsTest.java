package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import dev.mnemo.testkit.ProjectMemories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link McpInstructions} rendered against the limits of the documented clients: the memory first,
 * the guidance whole, the summary cut at a line boundary with a marker when it does not fit.
 */
class McpInstructionsTest {

    private static final String FIRST_LINE = "FIRST-SUMMARY-LINE: the user prefers small reviewed commits.";
    private static final String LAST_LINE = "LAST-SUMMARY-LINE";

    @TempDir
    Path dir;

    /** A home whose global summary holds {@code lines} numbered lines between the first and last line. */
    private Path homeWithSummary(int lines) throws Exception {
        Path memories = Files.createDirectories(dir.resolve("home/memories"));
        StringBuilder summary = new StringBuilder(FIRST_LINE).append('\n');
        for (int i = 0; i < lines; i++) {
            summary.append("- remembered fact number ").append(i).append(", worth a line of its own\n");
        }
        Files.writeString(memories.resolve("memory_summary.md"), summary.append(LAST_LINE).append('\n'));
        return dir.resolve("home");
    }

    private static void addNote(Path home, Optional<String> project, String name, String text) {
        MemoryTools tools = MemoryTools.forFolder(home.resolve("memories"));
        MemoryTools scoped = project.map(tools::inProject).orElse(tools);
        String answer = scoped.call(MemoryTools.ADD_AD_HOC_NOTE,
                "{\"filename\":\"" + name + "\",\"note\":\"" + text + "\"}");
        assertThat(answer).doesNotContain("error");
    }

    @Test
    void smallSummary_comesWholeFirst_thenTheGuidance_withoutAMarker() throws Exception {
        Path home = homeWithSummary(3);

        String text = McpInstructions.render(home, false, Optional.empty());

        assertThat(text).startsWith(McpInstructions.LEAD).contains(FIRST_LINE, LAST_LINE).doesNotContain("[Cut here");
        assertThat(text.indexOf(FIRST_LINE)).isLessThan(text.indexOf("## Using this memory"));
        assertThat(text).contains("memories_search", "memories_read", "memories_list", "relative to the memory folder",
                "Citations are not expected", "read-only here", "mnemo note");
        assertThat(text).doesNotContain("MEMORY_SUMMARY", "<oai-mem-citation>", "memories_add_ad_hoc_note",
                home.toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {McpInstructions.CLIENT_LIMIT, 2_048})
    void hugeSummary_isCutAtALineBoundaryWithAMarker_withinTheLimit_guidanceWhole(int limit) throws Exception {
        Path home = homeWithSummary(5_000);

        String text = McpInstructions.render(home, false, Optional.empty(), limit);

        assertThat(text.length()).isLessThanOrEqualTo(limit);
        assertThat(text.indexOf(FIRST_LINE)).isBetween(0, limit - FIRST_LINE.length());
        assertThat(text).contains("[Cut here: MCP clients keep " + String.format("%,d", limit) + " characters")
                .contains("`memory_summary.md`").doesNotContain(LAST_LINE);
        String beforeMarker = text.substring(0, text.indexOf("\n[Cut here"));
        String lastKept = beforeMarker.substring(beforeMarker.lastIndexOf('\n') + 1);
        assertThat(lastKept).matches("- remembered fact number \\d+, worth a line of its own");
        assertThat(text).endsWith(McpInstructions.guidance(false, Optional.empty(), false));
        assertThat(nextSummaryLine(home.resolve("memories/memory_summary.md"), text)).isPositive();
    }

    /**
     * The {@code line_offset} the marker names, checked: the line before it is the last one shown,
     * and the line it names is not shown.
     */
    private static int nextSummaryLine(Path file, String text) throws Exception {
        java.util.regex.Matcher marker = java.util.regex.Pattern.compile("from line_offset (\\d+)").matcher(text);
        assertThat(marker.find()).as("a line_offset in the marker").isTrue();
        int next = Integer.parseInt(marker.group(1));
        List<String> lines = Files.readAllLines(file);
        List<String> shown = text.lines().toList();
        assertThat(shown).contains(lines.get(next - 2)).doesNotContain(lines.get(next - 1));
        assertThat(shown.get(shown.indexOf(lines.get(next - 2)) + 1)).startsWith("[Cut here");
        return next;
    }

    @Test
    void hugeSummaryWithManyNotes_keepsNotesAndTheSummarysFirstLine_withinTheLimit() throws Exception {
        Path home = homeWithSummary(5_000);
        for (int i = 0; i < 40; i++) {
            addNote(home, Optional.empty(), String.format("2026-12-01T10-00-%02d-note-%d.md", i, i),
                    "NOTE-" + i + " the user asked to remember a fairly long sentence about the build, number " + i);
        }

        String text = McpInstructions.render(home, true, Optional.empty());

        assertThat(text.length()).isLessThanOrEqualTo(McpInstructions.CLIENT_LIMIT);
        assertThat(text).contains("## Recent notes", "NOTE-39", "more notes under `extensions/ad_hoc/notes/`",
                FIRST_LINE, "[Cut here");
        assertThat(text.indexOf("## Recent notes")).isLessThan(text.indexOf(FIRST_LINE));
        assertThat(text).contains("memories_add_ad_hoc_note").doesNotContain("mnemo note", "read-only here");
        assertThat(nextSummaryLine(home.resolve("memories/memory_summary.md"), text)).isPositive();
    }

    @Test
    void summaryWithLeadingBlankLines_theMarkersLineOffsetCountsThem() throws Exception {
        Path home = homeWithSummary(5_000);
        Path file = home.resolve("memories/memory_summary.md");
        Files.writeString(file, "\n\n   \n" + Files.readString(file));

        String text = McpInstructions.render(home, false, Optional.empty());

        assertThat(nextSummaryLine(file, text)).isGreaterThan(3);
    }

    @Test
    void allowNotes_namesTheNoteTool_readOnly_namesMnemoNote() throws Exception {
        Path home = homeWithSummary(3);

        assertThat(McpInstructions.render(home, true, Optional.empty())).contains("memories_add_ad_hoc_note")
                .doesNotContain("mnemo note");
        assertThat(McpInstructions.render(home, false, Optional.empty())).contains("mnemo note", "read-only here")
                .doesNotContain("memories_add_ad_hoc_note");
    }

    @Test
    void project_carriesItsMemoryThenTheGlobal_neverAnothers_andTheMarkerNamesBothSummaries() throws Exception {
        Path home = dir.resolve("home");
        Path memories = ProjectMemories.plant(home, "acme/web", "acme/api");
        addNote(home, Optional.of("acme/web"), "2026-12-01T10-00-00-web.md", "WEB-NOTE use pnpm workspaces");
        addNote(home, Optional.of("acme/api"), "2026-12-01T10-00-01-api.md", "API-NOTE use npm");
        String slug = ProjectKeys.slug("acme/web");

        String text = McpInstructions.render(home, false, Optional.of("acme/web"));

        assertThat(text).contains(ProjectMemories.PNPM_FACT, ProjectMemories.GLOBAL_FACT, "WEB-NOTE",
                "This session's project is `projects/" + slug + "/`");
        assertThat(text).doesNotContain(ProjectMemories.NPM_FACT, "API-NOTE");
        assertThat(text.indexOf(ProjectMemories.PNPM_FACT)).isLessThan(text.indexOf(ProjectMemories.GLOBAL_FACT));

        StringBuilder big = new StringBuilder("PROJECT-FIRST-LINE\n");
        for (int i = 0; i < 3_000; i++) {
            big.append("- project fact ").append(i).append('\n');
        }
        Files.writeString(memories.resolve("projects/" + slug + "/memory_summary.md"), big);
        String cut = McpInstructions.render(home, false, Optional.of("acme/web"));

        assertThat(cut.length()).isLessThanOrEqualTo(McpInstructions.CLIENT_LIMIT);
        assertThat(cut).contains("PROJECT-FIRST-LINE", "`projects/" + slug + "/memory_summary.md` from line_offset ",
                ", then `memory_summary.md`.]").doesNotContain(ProjectMemories.GLOBAL_FACT);
        assertThat(nextSummaryLine(memories.resolve("projects/" + slug + "/memory_summary.md"), cut)).isPositive();
    }

    @Test
    void withoutProject_theGlobalSummaryAndTheIndexOfProjects_neverAProjectsSummary() throws Exception {
        Path home = dir.resolve("home");
        ProjectMemories.plant(home, "acme/web", "acme/api");

        String text = McpInstructions.render(home, false, Optional.empty());

        assertThat(text).contains("## Memory summary (memory_summary.md)", ProjectMemories.GLOBAL_FACT,
                "Projects with memory of their own", "`projects/<name>/`");
        assertThat(text).doesNotContain(ProjectMemories.PNPM_FACT, ProjectMemories.NPM_FACT);
    }

    @Test
    void missingHome_orNoSummary_saysSo_andStillGuides_withinTheLimit() throws Exception {
        String missing = McpInstructions.render(dir.resolve("absent"), false, Optional.empty());
        Files.createDirectories(dir.resolve("empty/memories"));
        String empty = McpInstructions.render(dir.resolve("empty"), true, Optional.of("acme/web"));

        for (String text : List.of(missing, empty)) {
            assertThat(text).startsWith(McpInstructions.LEAD_WITHOUT_SUMMARY).contains("memories_search",
                    "memories_read", "relative to the memory folder");
            assertThat(text.length()).isLessThanOrEqualTo(McpInstructions.CLIENT_LIMIT);
        }
        assertThat(Files.exists(dir.resolve("absent"))).isFalse();
        assertThat(empty).contains("memories_add_ad_hoc_note");
    }

    @Test
    void cutAtLine_aFirstLineLongerThanTheRoom_isCutBetweenCharacters_neverInsideASurrogatePair() {
        String marker = "[cut]";
        String emoji = "\uD83D\uDE00".repeat(100);

        for (int room = 10; room < 60; room++) {
            String cut = McpInstructions.cutAtLine(emoji + "\nsecond", room, marker);
            assertThat(cut.length()).isLessThanOrEqualTo(room);
            assertThat(cut).endsWith("…\n" + marker);
            String kept = cut.substring(0, cut.length() - marker.length() - 2);
            assertThat(kept.length() % 2).as("whole emoji only, room %d", room).isZero();
        }
    }

    @Test
    void useMemoriesOff_carriesNoSummary() throws Exception {
        Path home = homeWithSummary(3);
        Files.writeString(home.resolve("config.toml"), "[memories]\nuse_memories = false\n");

        assertThat(McpInstructions.render(home, false, Optional.empty())).doesNotContain(FIRST_LINE)
                .startsWith(McpInstructions.LEAD_WITHOUT_SUMMARY);
    }
}
