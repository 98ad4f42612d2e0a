package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.ProjectKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scopes on the read path (issue 29): a session in a project sees that project's summary and the
 * global one, never another project's; the project's part survives any size of global summary; a
 * session in no project sees the global summary and an index; pending notes show at once in their
 * scope only; a folder without projects renders as before.
 */
class ScopedInstructionsTest {

    private static final String APP = "/work/src/app";
    private static final String WEB = "/work/src/web";

    @TempDir
    Path temp;

    private Path root;

    @BeforeEach
    void createRoot() throws IOException {
        root = Files.createDirectories(temp.resolve("memories"));
        write("memory_summary.md", "v1\n\n## User preferences\n- answers in British English\n");
        writeProject(APP, "v1\n\n- the app builds with pnpm and Java 17\n");
        writeProject(WEB, "v1\n\n- the web site builds with npm and Java 21\n");
    }

    private void write(String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private void writeProject(String key, String summary) throws IOException {
        write("projects/" + ProjectKeys.slug(key) + "/memory_summary.md", summary);
        write("projects/" + ProjectKeys.slug(key) + "/MEMORY.md", "# handbook\n");
    }

    private DeveloperInstructions instructions(MemoriesConfig config) {
        return new DeveloperInstructions(root, config, Clock.offset(Clock.systemUTC(), Duration.ofHours(1)));
    }

    private DeveloperInstructions instructions() {
        return instructions(MemoriesConfig.defaults());
    }

    @Test
    void aSessionInAProject_seesItsProjectAndGlobalMemory_neverAnotherProjects() {
        String app = instructions().forTools(Optional.of(APP));
        String web = instructions().forTools(Optional.of(WEB));

        assertThat(app).contains("pnpm and Java 17").contains("British English").doesNotContain("npm and Java 21");
        assertThat(web).contains("npm and Java 21").contains("British English").doesNotContain("pnpm");
        assertThat(app.indexOf("pnpm and Java 17")).as("the project comes first")
                .isLessThan(app.indexOf("British English"));
        assertThat(app).contains("projects/" + ProjectKeys.slug(APP) + "/").doesNotContain(APP);
    }

    @Test
    void aSessionInNoProject_seesGlobalMemoryAndAnIndexOfProjects_butNoProjectsFacts() {
        String none = instructions().forTools(Optional.empty());

        assertThat(none).contains("British English").doesNotContain("pnpm").doesNotContain("Java 21");
        assertThat(none).contains(ProjectKeys.slug(APP)).contains(ProjectKeys.slug(WEB));
    }

    @Test
    void aProjectWithoutMemoryYet_getsGlobalMemoryAndNoOtherProjects() {
        String fresh = instructions().forTools(Optional.of("/work/src/brand-new"));

        assertThat(fresh).contains("British English").doesNotContain("pnpm").doesNotContain("Java 21");
    }

    @Test
    void aGlobalSummaryFarOverTheBudget_neverPushesTheProjectsSummaryOut() throws IOException {
        write("memory_summary.md", "v1\n\n" + "- a general habit worth remembering\n".repeat(5_000));
        MemoriesConfig config = MemoriesConfig.builder().summaryTokenLimit(500).build(); // the smallest allowed

        String app = instructions(config).forTools(Optional.of(APP));

        assertThat(app).contains("pnpm and Java 17");
        String section = between(app);
        assertThat(TokenTruncation.approxTokens(section)).as("project and global within the budget, with headings")
                .isLessThan(500 + 60);
    }

    @Test
    void aProjectSummaryThatFillsTheBudget_leavesTheGlobalOneOut_andSaysSo() throws IOException {
        writeProject(APP, "v1\n\n- pnpm and Java 17\n" + "- a project fact\n".repeat(2_000));
        MemoriesConfig config = MemoriesConfig.builder().summaryTokenLimit(500).build();

        String app = instructions(config).forTools(Optional.of(APP));

        assertThat(app).contains("pnpm and Java 17").doesNotContain("British English").contains("Left out");
    }

    @Test
    void aFolderWithoutProjects_rendersExactlyAsBeforeScopes() throws IOException {
        deleteTree(root.resolve("projects"));
        String summary = Files.readString(root.resolve("memory_summary.md")).strip();

        String none = instructions().forTools(Optional.empty());

        assertThat(between(none)).isEqualTo(summary);
        assertThat(none).doesNotContain("projects/");
    }

    @Test
    void aPendingNote_showsAtOnceInItsScopeOnly_untilAConsolidationFoldsItIn() throws IOException {
        write("extensions/ad_hoc/notes/2026-12-01T10-00-00-use-yarn.md",
                AdHocNoteFiles.fileText(Optional.of(ProjectKeys.slug(APP)), "From now on the app uses yarn."));
        write("extensions/ad_hoc/notes/2026-12-01T11-00-00-tabs.md",
                AdHocNoteFiles.fileText(Optional.empty(), "Indent with tabs everywhere."));
        DeveloperInstructions instructions = new DeveloperInstructions(root, MemoriesConfig.defaults(),
                Clock.systemUTC());

        assertThat(instructions.forTools(Optional.of(APP))).contains("app uses yarn").contains("tabs everywhere")
                .contains("not yet consolidated");
        assertThat(instructions.forTools(Optional.of(WEB))).doesNotContain("yarn").contains("tabs everywhere");
        assertThat(instructions.forTools(Optional.empty())).doesNotContain("yarn").contains("tabs everywhere");

        AdHocNoteFiles.writeFolded(root, AdHocNoteFiles.names(root));

        assertThat(instructions.forTools(Optional.of(APP))).doesNotContain("yarn").doesNotContain("tabs everywhere");
    }

    @Test
    void pendingNotes_areCapped() throws IOException {
        for (int i = 0; i < 60; i++) {
            write("extensions/ad_hoc/notes/2026-12-01T10-00-%02d-n.md".formatted(i), "note " + i + " " + "x".repeat(200));
        }

        String none = instructions().forTools(Optional.empty());

        assertThat(none).contains("note 59").doesNotContain("note 0 ").contains("older notes");
        assertThat(TokenTruncation.approxTokens(between(none)))
                .isLessThan(DeveloperInstructions.NOTES_TOKEN_LIMIT + 200);
    }

    @Test
    void theIndex_isOneLine_cappedForManyProjects() throws IOException {
        for (int i = 0; i < 200; i++) {
            writeProject("/work/many/p" + i, "v1\n\n- fact " + i + "\n");
        }

        String none = instructions().forTools(Optional.empty());

        List<String> indexLines = between(none).lines().filter(l -> l.startsWith("Projects with memory")).toList();
        assertThat(indexLines).hasSize(1);
        assertThat(indexLines.get(0)).contains("and 162 more");
    }

    @Test
    void theShellAudience_namesTheProjectKeyAndAbsolutePaths() {
        MemoriesConfig shell = MemoriesConfig.builder().dedicatedTools(false).build();

        String app = instructions(shell).build(Optional.of(APP));

        assertThat(app).contains("project " + APP).contains(root.toAbsolutePath() + "/projects/");
    }

    private static String between(String instructions) {
        String begins = "========= MEMORY_SUMMARY BEGINS =========\n";
        int start = instructions.indexOf(begins) + begins.length();
        return instructions.substring(start, instructions.indexOf("\n========= MEMORY_SUMMARY ENDS"));
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
