package dev.mnemo.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rendering kept between calls ({@link StampedPath}) never hides a change: a rewrite by another
 * process, a file replaced with the same size and modification time (git's racy-clean case), a
 * clock stepped back. A wall clock an hour ahead makes entries old enough to be trusted without
 * waiting; the system clock keeps a just-written file inside the racy window.
 */
class DeveloperInstructionsCacheTest {

    private static final String BEGINS = "========= MEMORY_SUMMARY BEGINS =========";
    private static final String ENDS = "========= MEMORY_SUMMARY ENDS =========";

    @TempDir
    Path temp;

    private Path root;
    private Path summary;

    @BeforeEach
    void createRoot() throws IOException {
        root = Files.createDirectories(temp.resolve("memories"));
        summary = root.resolve(DeveloperInstructions.SUMMARY_FILE);
    }

    private static String between(String instructions) {
        int start = instructions.indexOf(BEGINS) + BEGINS.length() + 1;
        return instructions.substring(start, instructions.indexOf(ENDS) - 1);
    }

    private static Clock offsetFromNow(Duration offset) {
        return Clock.offset(Clock.systemUTC(), offset);
    }

    private DeveloperInstructions instructions(Clock wallClock) {
        return new DeveloperInstructions(root, MemoriesConfig.defaults(), wallClock);
    }

    @Test
    void build_returnsTheSameRenderingWhileAnOldSummaryIsUnchanged() throws IOException {
        Files.writeString(summary, "stable summary", StandardCharsets.UTF_8);
        DeveloperInstructions instructions = instructions(offsetFromNow(Duration.ofHours(1)));

        String first = instructions.build();

        assertThat(instructions.build()).isSameAs(first);
        assertThat(instructions.forTools()).isSameAs(instructions.forTools());
        assertThat(between(first)).isEqualTo("stable summary");
    }

    @Test
    void build_seesASummaryRewrittenInPlaceWithTheSameSizeAndModificationTime() throws IOException {
        Files.writeString(summary, "version AAA", StandardCharsets.UTF_8);
        FileTime written = Files.getLastModifiedTime(summary);
        DeveloperInstructions instructions = instructions(Clock.systemUTC()); // the write is racy: just now
        assertThat(between(instructions.build())).isEqualTo("version AAA");

        Files.writeString(summary, "version BBB", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(summary, written);

        assertThat(Files.size(summary)).isEqualTo("version AAA".length());
        assertThat(between(instructions.build())).isEqualTo("version BBB");
    }

    @Test
    void build_seesASummaryReplacedByRenameWithTheSameSizeAndModificationTime() throws IOException {
        Files.writeString(summary, "version AAA", StandardCharsets.UTF_8);
        FileTime old = FileTime.from(Instant.now().minus(Duration.ofDays(1)));
        Files.setLastModifiedTime(summary, old);
        DeveloperInstructions instructions = instructions(offsetFromNow(Duration.ofHours(1))); // trusted entry
        assertThat(between(instructions.build())).isEqualTo("version AAA");

        Path next = root.resolve("memory_summary.md.tmp");
        Files.writeString(next, "version BBB", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(next, old);
        Files.move(next, summary, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        assertThat(between(instructions.build())).isEqualTo("version BBB");
    }

    @Test
    void build_seesASummaryWrittenByAnotherProcess() throws Exception {
        Files.writeString(summary, "written here", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(summary, FileTime.from(Instant.now().minus(Duration.ofDays(1))));
        DeveloperInstructions instructions = instructions(offsetFromNow(Duration.ofHours(1))); // trusted entry
        assertThat(between(instructions.build())).isEqualTo("written here");

        Process writer = new ProcessBuilder("sh", "-c", "printf '%s' \"$1\" > \"$2\"", "sh", "written there",
                summary.toString()).inheritIO().start();
        assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(writer.exitValue()).isZero();

        assertThat(between(instructions.build())).isEqualTo("written there");
        assertThat(between(instructions.forTools())).isEqualTo("written there");
    }

    @Test
    void build_afterTheClockStepsBack_seesASameSizeSameTimeRewrite() throws IOException {
        // The clock was stepped back an hour: every file time is now "in the future", so no entry is trusted.
        DeveloperInstructions instructions = instructions(offsetFromNow(Duration.ofHours(-1)));
        Files.writeString(summary, "before step", StandardCharsets.UTF_8);
        FileTime written = Files.getLastModifiedTime(summary);
        assertThat(between(instructions.build())).isEqualTo("before step");

        Files.writeString(summary, "after  step", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(summary, written);

        assertThat(between(instructions.build())).isEqualTo("after  step");
    }

    @Test
    void build_seesTheSummaryDeletedAndBlankedAfterItWasTrusted() throws IOException {
        Files.writeString(summary, "present", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(summary, FileTime.from(Instant.now().minus(Duration.ofDays(1))));
        DeveloperInstructions instructions = instructions(offsetFromNow(Duration.ofHours(1)));
        assertThat(between(instructions.build())).isEqualTo("present");

        Files.delete(summary);
        assertThat(instructions.build()).isEmpty();

        Files.writeString(summary, "   \n", StandardCharsets.UTF_8);
        assertThat(instructions.build()).isEmpty();

        Files.writeString(summary, "back", StandardCharsets.UTF_8);
        assertThat(between(instructions.build())).isEqualTo("back");
    }

    /** Sets {@code path}'s modification time a day back, so the next entry made in it changes its stamp. */
    private static void ageFolder(Path path) throws IOException {
        Files.setLastModifiedTime(path, FileTime.from(Instant.now().minus(Duration.ofDays(1))));
    }

    @Test
    void build_seesProjectsAndNotesAddedAfterTheMemoryFolderVouchedForTheirAbsence() throws IOException {
        Files.writeString(summary, "global only", StandardCharsets.UTF_8);
        ageFolder(root);
        DeveloperInstructions instructions = instructions(offsetFromNow(Duration.ofHours(1))); // trusted stamps
        assertThat(between(instructions.forTools())).isEqualTo("global only");
        assertThat(between(instructions.forTools())).isEqualTo("global only"); // absence now vouched by the folder

        Path project = Files.createDirectories(root.resolve("projects").resolve("web-app"));
        Files.writeString(project.resolve(DeveloperInstructions.SUMMARY_FILE), "web summary", StandardCharsets.UTF_8);

        assertThat(between(instructions.forTools())).contains("global only").contains("web-app");

        ageFolder(root);
        assertThat(instructions.forTools()).doesNotContain("not yet consolidated");
        Path notes = Files.createDirectories(AdHocNoteFiles.notesDir(root));
        Files.writeString(notes.resolve("2026-12-01T10-00-00-tabs.md"),
                AdHocNoteFiles.fileText(java.util.Optional.empty(), "Indent with tabs everywhere."),
                StandardCharsets.UTF_8);

        assertThat(instructions.forTools()).contains("tabs everywhere").contains("not yet consolidated");

        ageFolder(root);
        assertThat(instructions.forTools()).contains("tabs everywhere");
        AdHocNoteFiles.writeFolded(root, AdHocNoteFiles.names(root));

        assertThat(instructions.forTools()).doesNotContain("tabs everywhere");
    }

    @Test
    void build_seesANotesFolderMadeInsideAnExistingFolderWhileTheMemoryFolderIsUnchanged() throws IOException {
        Files.writeString(summary, "global only", StandardCharsets.UTF_8);
        Path adHoc = Files.createDirectories(root.resolve("extensions").resolve("ad_hoc"));
        ageFolder(root);
        DeveloperInstructions instructions = instructions(offsetFromNow(Duration.ofHours(1)));
        assertThat(instructions.forTools()).doesNotContain("not yet consolidated");
        assertThat(instructions.forTools()).doesNotContain("not yet consolidated");
        FileTime rootModified = Files.getLastModifiedTime(root);

        Path notes = Files.createDirectories(adHoc.resolve("notes"));
        Files.writeString(notes.resolve("2026-12-01T10-00-00-tabs.md"),
                AdHocNoteFiles.fileText(java.util.Optional.empty(), "Indent with tabs everywhere."),
                StandardCharsets.UTF_8);

        assertThat(Files.getLastModifiedTime(root)).isEqualTo(rootModified); // the memory folder itself is unchanged
        assertThat(instructions.forTools()).contains("tabs everywhere");
    }

    /** A memory folder swapped for another by rename, even with the same time, is another folder (its inode). */
    @Test
    void build_seesAMemoryFolderReplacedByRenameWithTheSameModificationTime() throws IOException {
        Files.writeString(summary, "global only", StandardCharsets.UTF_8);
        ageFolder(root);
        DeveloperInstructions instructions = instructions(offsetFromNow(Duration.ofHours(1)));
        assertThat(between(instructions.forTools())).isEqualTo("global only");
        assertThat(between(instructions.forTools())).isEqualTo("global only"); // absence now vouched by the folder

        Path next = Files.createDirectories(temp.resolve("memories.next"));
        Files.copy(summary, next.resolve(DeveloperInstructions.SUMMARY_FILE), StandardCopyOption.COPY_ATTRIBUTES);
        Path project = Files.createDirectories(next.resolve("projects").resolve("web-app"));
        Files.writeString(project.resolve(DeveloperInstructions.SUMMARY_FILE), "web summary", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(next, Files.getLastModifiedTime(root));
        Files.move(root, temp.resolve("memories.old"));
        Files.move(next, root);

        assertThat(between(instructions.forTools())).contains("global only").contains("web-app");
    }

    @Test
    void build_withARecentlyChangedMemoryFolder_seesAProjectAddedInTheSameClockTick() throws IOException {
        // The system clock: the memory folder was changed just now, so its stamp vouches for nothing.
        Files.writeString(summary, "global only", StandardCharsets.UTF_8);
        DeveloperInstructions instructions = instructions(Clock.systemUTC());
        assertThat(between(instructions.forTools())).isEqualTo("global only");
        FileTime before = Files.getLastModifiedTime(root);

        Files.createDirectories(root.resolve("projects").resolve("web-app"));
        Files.setLastModifiedTime(root, before); // as if in the same tick: only the change time moved

        assertThat(between(instructions.forTools())).contains("web-app");
    }

    @Test
    void build_seesProjectsAppearBehindALinkThatDangledWhileTheMemoryFolderIsUnchanged() throws IOException {
        Files.writeString(summary, "global only", StandardCharsets.UTF_8);
        Path elsewhere = temp.resolve("shared-projects");
        Files.createSymbolicLink(root.resolve("projects"), elsewhere); // dangling: the target is not there yet
        ageFolder(root);
        DeveloperInstructions instructions = instructions(offsetFromNow(Duration.ofHours(1)));
        assertThat(between(instructions.forTools())).isEqualTo("global only");
        assertThat(between(instructions.forTools())).isEqualTo("global only");
        FileTime rootModified = Files.getLastModifiedTime(root);

        Path project = Files.createDirectories(elsewhere.resolve("web-app"));
        Files.writeString(project.resolve(DeveloperInstructions.SUMMARY_FILE), "web summary", StandardCharsets.UTF_8);

        assertThat(Files.getLastModifiedTime(root)).isEqualTo(rootModified);
        assertThat(between(instructions.forTools())).contains("web-app");
    }
}
