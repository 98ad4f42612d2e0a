package dev.mnemo.workspace.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.mnemo.spi.WorkspaceDiff;
import dev.mnemo.spi.WorkspaceDiff.Change;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which paths a diff lists and in what order: full relative paths in {@link String#compareTo}
 * order (a folder's name sorts as if followed by {@code /}), whatever order the file system lists
 * a folder in and whatever order git keeps the baseline's tree in; links are listed, not
 * followed; {@code .git} entries at any depth and the top-level diff file are left out.
 */
class WorkspaceDiffOrderTest {

    private static final Instant NOW = Instant.parse("2026-04-01T12:00:00Z");
    private static final Pattern HEADER = Pattern.compile("^diff --git a/(.*) b/", Pattern.MULTILINE);

    @TempDir
    Path temp;

    private Path root;
    private GitMemoryWorkspace workspace;

    @BeforeEach
    void openWorkspace() throws IOException {
        root = Files.createDirectories(temp.resolve("memories"));
        workspace = GitMemoryWorkspace.open(root, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterEach
    void closeWorkspace() {
        workspace.close();
    }

    private void write(String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static List<String> paths(WorkspaceDiff diff) {
        return diff.changes().stream().map(Change::path).toList();
    }

    private static List<String> patchPaths(WorkspaceDiff diff) {
        List<String> paths = new ArrayList<>();
        Matcher header = HEADER.matcher(diff.unifiedDiff());
        while (header.find()) {
            paths.add(header.group(1));
        }
        return paths;
    }

    /** The ASCII names above as a diff lists them: String order of the whole path. */
    private static final List<String> ASCII_ORDER = List.of(
            "B.md", "MEMORY.md", "a-b", "a.b", "a/b-c", "a/b/c", "a0", "ab", "b.md", "b/a");

    private void writeAsciiNames(String text) throws IOException {
        for (String path : ASCII_ORDER) {
            write(path, text);
        }
    }

    @Test
    void diff_listsAddedPathsInStringOrderWithFoldersSortedAsIfFollowedBySlash() throws IOException {
        workspace.prepare();
        writeAsciiNames("new\n");

        WorkspaceDiff diff = workspace.diff();

        assertThat(paths(diff)).containsExactlyElementsOf(ASCII_ORDER);
        assertThat(patchPaths(diff)).containsExactlyElementsOf(ASCII_ORDER);
    }

    @Test
    void diff_listsModifiedAndDeletedBaselinePathsInTheSameOrder() throws IOException {
        writeAsciiNames("old\n");
        workspace.prepare();
        for (int i = 0; i < ASCII_ORDER.size(); i++) {
            if (i % 2 == 0) {
                write(ASCII_ORDER.get(i), "changed\n");
            } else {
                Files.delete(root.resolve(ASCII_ORDER.get(i)));
            }
        }

        WorkspaceDiff diff = workspace.diff();

        assertThat(paths(diff)).containsExactlyElementsOf(ASCII_ORDER);
        assertThat(diff.changes()).extracting(Change::status).containsExactly(
                WorkspaceDiff.Status.M, WorkspaceDiff.Status.D, WorkspaceDiff.Status.M, WorkspaceDiff.Status.D,
                WorkspaceDiff.Status.M, WorkspaceDiff.Status.D, WorkspaceDiff.Status.M, WorkspaceDiff.Status.D,
                WorkspaceDiff.Status.M, WorkspaceDiff.Status.D);
    }

    @Test
    void diff_ordersNonAsciiNamesByString_evenWhereGitsByteOrderDiffers() throws IOException {
        assumeThat(System.getProperty("sun.jnu.encoding")).isEqualToIgnoringCase("UTF-8");
        // git's tree keeps UTF-8 byte order: "ｚ" (EF BD 9A) before "😀" (F0 9F 98 80); as UTF-16 "😀" (D83D) comes first.
        List<String> order = List.of("z.md", "é.md", "Ω.md", "Ω/x.md", "😀.md", "ｚ.md");
        for (String path : order) {
            write(path, "old\n");
        }
        workspace.prepare();
        for (String path : order) {
            write(path, "new\n");
        }
        write("ä.md", "added\n");

        WorkspaceDiff diff = workspace.diff();

        assertThat(paths(diff)).containsExactly("z.md", "ä.md", "é.md", "Ω.md", "Ω/x.md", "😀.md", "ｚ.md");
        assertThat(patchPaths(diff)).isEqualTo(paths(diff));
    }

    @Test
    void diff_seesAFileReplacedByAFolderOfTheSameNameAndAFolderReplacedByAFile() throws IOException {
        write("x", "file\n");
        write("y/inner.md", "inside\n");
        workspace.prepare();
        Files.delete(root.resolve("x"));
        write("x/inner.md", "now inside\n");
        WorkingFiles.deleteRecursively(root.resolve("y"));
        write("y", "now a file\n");

        WorkspaceDiff diff = workspace.diff();

        assertThat(diff.changes()).containsExactly(
                new Change(WorkspaceDiff.Status.D, "x"),
                new Change(WorkspaceDiff.Status.A, "x/inner.md"),
                new Change(WorkspaceDiff.Status.A, "y"),
                new Change(WorkspaceDiff.Status.D, "y/inner.md"));
    }

    @Test
    void diff_listsALinkToAFolderAsTheLinkWithoutWalkingIntoIt() throws IOException {
        write("notes/a.md", "a\n");
        workspace.prepare();
        Files.createSymbolicLink(root.resolve("notes-link"), Path.of("notes"));
        Files.createSymbolicLink(root.resolve("notes/b-link.md"), Path.of("a.md"));

        WorkspaceDiff diff = workspace.diff();

        assertThat(paths(diff)).containsExactly("notes-link", "notes/b-link.md");
        assertThat(diff.unifiedDiff()).contains("new file mode 120000").contains("+notes").contains("+a.md");
    }

    @Test
    void diff_leavesOutGitEntriesAtAnyDepthAndOnlyTheTopLevelDiffFile() throws IOException {
        workspace.prepare();
        write("sub/.git/config", "[core]\n");
        write("sub/deeper/.git", "gitdir: elsewhere\n");
        write(WorkingFiles.DIFF_FILE, "the diff Phase 2 writes\n");
        write("sub/" + WorkingFiles.DIFF_FILE, "an ordinary memory file\n");
        write("sub/kept.md", "kept\n");

        assertThat(paths(workspace.diff())).containsExactly("sub/kept.md", "sub/" + WorkingFiles.DIFF_FILE);
    }
}
