package dev.mnemo.internal.tools;

import static dev.mnemo.internal.tools.LocalMemoryTools.ADD_AD_HOC_NOTE;
import static dev.mnemo.internal.tools.LocalMemoryTools.LIST;
import static dev.mnemo.internal.tools.LocalMemoryTools.READ;
import static dev.mnemo.internal.tools.LocalMemoryTools.SEARCH;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Nothing outside the memory root can be reached: parent segments and absolute paths are refused,
 * and real symlinks (to files, to folders, as ancestors, as the notes folder) are refused
 * (read sheet §4.2; {@code local_tests.rs} 29–33).
 */
class PathSafetyToolTest extends ToolsFixture {

    private static final String OUTSIDE = "outside secret needle";

    private Path outsideDir() throws IOException {
        Path outside = temp.resolve("outside");
        Files.createDirectories(outside);
        Files.writeString(outside.resolve("secret.md"), OUTSIDE);
        return outside;
    }

    @Test
    void scopedPaths_rejectParentSegmentsAndAbsolutePaths() throws IOException {
        outsideDir();

        assertThat(error(READ, "{\"path\":\"../secret\"}")).isEqualTo("path '../secret' must stay within the memories root");
        assertThat(error(READ, "{\"path\":\"skills/../../outside/secret.md\"}")).contains("must stay within the memories root");
        assertThat(error(READ, "{\"path\":\"" + temp.resolve("outside/secret.md") + "\"}"))
                .contains("must stay within the memories root");
        assertThat(error(LIST, "{\"path\":\"..\"}")).contains("must stay within the memories root");
        assertThat(error(SEARCH, "{\"queries\":[\"needle\"],\"path\":\"/\"}")).contains("must stay within the memories root");
    }

    @Test
    void read_rejectsSymlinkedFiles() throws IOException {
        Files.createSymbolicLink(root.resolve("inside-link"), outsideDir().resolve("secret.md"));

        assertThat(error(READ, "{\"path\":\"inside-link\"}")).isEqualTo("path 'inside-link' must not be a symlink");
    }

    @Test
    void read_rejectsSymlinkedAncestorDirectories() throws IOException {
        Files.createSymbolicLink(root.resolve("skills"), outsideDir());

        assertThat(error(READ, "{\"path\":\"skills/secret.md\"}")).isEqualTo("path 'skills' must not be a symlink");
    }

    @Test
    void list_rejectsSymlinkedDirectories() throws IOException {
        Files.createSymbolicLink(root.resolve("skills"), outsideDir());

        assertThat(error(LIST, "{\"path\":\"skills\"}")).contains("must not be a symlink");
    }

    @Test
    void search_rejectsSymlinkedDirectoriesAndSkipsLinksWhileWalking() throws IOException {
        Path outside = outsideDir();
        Files.createSymbolicLink(root.resolve("skills"), outside);
        Files.createSymbolicLink(root.resolve("linked.md"), outside.resolve("secret.md"));
        write("MEMORY.md", "needle here\n");

        assertThat(error(SEARCH, "{\"queries\":[\"needle\"],\"path\":\"skills\"}")).contains("must not be a symlink");
        String all = tools.call(SEARCH, "{\"queries\":[\"needle\"]}");
        assertThat(all).contains("needle here").doesNotContain("secret");
        assertThat(tools.call(LIST, "{}")).contains("MEMORY.md").doesNotContain("skills").doesNotContain("linked.md");
    }

    @Test
    void aSymlinkedRoot_isFollowedOnceAndEveryToolWorksThroughIt() throws IOException {
        Path realRoot = temp.resolve("real-root");
        Files.createDirectories(realRoot);
        Files.writeString(realRoot.resolve("MEMORY.md"), "needle\n");
        Path linkRoot = Files.createSymbolicLink(temp.resolve("link-root"), realRoot);
        LocalMemoryTools linked = new LocalMemoryTools(linkRoot, CLOCK);

        assertThat(parse(linked.call(LIST, "{}")).get("entries").toString()).contains("MEMORY.md");
        assertThat(parse(linked.call(SEARCH, "{\"queries\":[\"needle\"]}")).get("matches").toString())
                .contains("MEMORY.md");
        assertThat(parse(linked.call(READ, "{\"path\":\"MEMORY.md\"}")).get("content").asText()).isEqualTo("needle\n");
        assertThat(linked.call(ADD_AD_HOC_NOTE, "{\"filename\":\"2026-05-26T13-42-08-x.md\",\"note\":\"kept\"}"))
                .isEqualTo("{}");
        assertThat(realRoot.resolve("extensions/ad_hoc/notes/2026-05-26T13-42-08-x.md")).hasContent("kept");
    }

    @Test
    void aSymlinkedRoot_stillRefusesLinksInsideIt() throws IOException {
        Path realRoot = temp.resolve("real-root");
        Files.createDirectories(realRoot);
        Files.createSymbolicLink(realRoot.resolve("skills"), outsideDir());
        LocalMemoryTools linked = new LocalMemoryTools(Files.createSymbolicLink(temp.resolve("link-root"), realRoot),
                CLOCK);

        assertThat(parse(linked.call(LIST, "{\"path\":\"skills\"}")).get("error").asText())
                .isEqualTo("path 'skills' must not be a symlink");
        assertThat(parse(linked.call(LIST, "{}")).get("entries").toString()).doesNotContain("skills");
    }

    @Test
    void ioErrors_showNoAbsolutePath() throws IOException {
        Path file = temp.resolve("a-file");
        Files.writeString(file, "not a folder");
        LocalMemoryTools underAFile = new LocalMemoryTools(file.resolve("memories"), CLOCK);

        for (String call : new String[] {LIST, SEARCH, READ}) {
            String message = parse(underAFile.call(call, call.equals(READ) ? "{\"path\":\"MEMORY.md\"}"
                    : call.equals(SEARCH) ? "{\"queries\":[\"x\"]}" : "{}")).get("error").asText();
            assertThat(message).as(call).startsWith("I/O error while reading memories")
                    .doesNotContain(temp.toString()).doesNotContain("a-file");
        }
    }

    @Test
    void read_rejectsTraversalThroughAFile() {
        write("MEMORY.md", "x");

        assertThat(error(READ, "{\"path\":\"MEMORY.md/inner\"}"))
                .isEqualTo("path 'MEMORY.md/inner' traverses through a non-directory path component");
    }

    @Test
    void addNote_refusesSymlinkedNotesFolder() throws IOException {
        Path outside = outsideDir();
        mkdirs("extensions/ad_hoc");
        Files.createSymbolicLink(root.resolve("extensions/ad_hoc/notes"), outside);

        assertThat(error(ADD_AD_HOC_NOTE,
                "{\"filename\":\"2026-05-26T13-42-08-x.md\",\"note\":\"escape\"}"))
                .isEqualTo("path 'extensions/ad_hoc/notes' must not be a symlink");
        assertThat(outside.resolve("2026-05-26T13-42-08-x.md")).doesNotExist();
    }

    @Test
    void addNote_refusesNotesPathThatIsAFile() {
        write("extensions/ad_hoc", "not a folder");

        assertThat(error(ADD_AD_HOC_NOTE, "{\"filename\":\"2026-05-26T13-42-08-x.md\",\"note\":\"n\"}"))
                .isEqualTo("path 'extensions/ad_hoc' must be a directory");
    }
}
