package dev.mnemo.internal.agent;

import static dev.mnemo.internal.agent.ToolLoopConsolidationAgentTest.call;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every tool refuses {@code ..}, absolute and hidden paths, symbolic links anywhere on the path,
 * and changes to the read-only diff; after each test nothing outside the memory folder (nor its
 * {@code .git}) has changed.
 */
class AgentToolsConfinementTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    private Path root;
    private Path outside;
    private AgentTools tools;
    private Map<String, String> outsideBefore;

    @BeforeEach
    void createWorkspace() throws IOException {
        root = Files.createDirectories(temp.resolve("memories"));
        outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("keep.md"), "outside text\n");
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/config"), "[core]\n");
        Files.writeString(root.resolve("MEMORY.md"), "memory\n");
        Files.writeString(root.resolve("phase2_workspace_diff.md"), "diff\n");
        Files.createDirectories(root.resolve("skills"));
        Files.createSymbolicLink(root.resolve("linked"), outside);
        Files.createSymbolicLink(root.resolve("alias.md"), outside.resolve("keep.md"));
        Files.createSymbolicLink(root.resolve("dangling.md"), outside.resolve("not-yet.md"));
        Files.createSymbolicLink(root.resolve("skills/inner"), root.resolve("skills"));
        tools = new AgentTools(root);
        outsideBefore = snapshot();
    }

    @AfterEach
    void nothingOutsideTheRootChanged() throws IOException {
        assertThat(snapshot()).isEqualTo(outsideBefore);
    }

    @Test
    void dotDotSegments_areRefusedEvenWhenTheyWouldLandInside() throws IOException {
        for (String path : new String[] {"../outside/keep.md", "skills/../../outside/keep.md", "skills/../MEMORY.md", ".."}) {
            assertThat(error("read_file", Map.of("path", path))).contains("must stay within");
            assertThat(error("write_file", Map.of("path", path, "content", "x"))).contains("must stay within");
        }
        assertThat(error("list_files", Map.of("path", ".."))).contains("must stay within");
        assertThat(error("move_file", Map.of("from", "MEMORY.md", "to", "../outside/moved.md"))).contains("must stay within");
    }

    @Test
    void absolutePaths_areRefused() throws IOException {
        String inside = root.resolve("MEMORY.md").toString();
        String beyond = outside.resolve("keep.md").toString();
        for (String path : new String[] {inside, beyond, "/tmp/x", "~/notes.md", "C:/Windows/x.md"}) {
            assertThat(error("write_file", Map.of("path", path, "content", "x"))).contains("absolute");
            assertThat(error("read_file", Map.of("path", path))).contains("absolute");
        }
        assertThat(error("search_files", Map.of("query", "outside", "path", outside.toString()))).contains("absolute");
        assertThat(error("delete_file", Map.of("path", beyond))).contains("absolute");
        assertThat(Files.readString(root.resolve("MEMORY.md"))).isEqualTo("memory\n");
    }

    @Test
    void hiddenPaths_includingGit_areUnreachable() throws IOException {
        assertThat(error("read_file", Map.of("path", ".git/config"))).contains("hidden");
        assertThat(error("write_file", Map.of("path", ".git/config", "content", "x"))).contains("hidden");
        assertThat(error("list_files", Map.of("path", ".git"))).contains("hidden");
        assertThat(error("delete_file", Map.of("path", ".git"))).contains("hidden");
        assertThat(error("move_file", Map.of("from", "MEMORY.md", "to", "skills/.MEMORY.md"))).contains("hidden");
        assertThat(error("write_file", Map.of("path", "./skills/.x/SKILL.md", "content", "x"))).contains("hidden");
        assertThat(root.resolve("skills/.x")).doesNotExist();
        assertThat(ok("list_files", Map.of("recursive", true)).path("entries").findValuesAsText("path"))
                .noneMatch(p -> p.contains(".git"));
    }

    @Test
    void symlinkedFolder_isNeverEnteredByAnyTool() throws IOException {
        assertThat(error("list_files", Map.of("path", "linked"))).contains("symbolic link");
        assertThat(error("read_file", Map.of("path", "linked/keep.md"))).contains("symbolic link");
        assertThat(error("search_files", Map.of("query", "outside", "path", "linked"))).contains("symbolic link");
        assertThat(error("write_file", Map.of("path", "linked/new.md", "content", "x"))).contains("symbolic link");
        assertThat(error("write_file", Map.of("path", "linked/deeper/new.md", "content", "x"))).contains("symbolic link");
        assertThat(error("edit_file", Map.of("path", "linked/keep.md", "old_string", "outside", "new_string", "x")))
                .contains("symbolic link");
        assertThat(error("delete_file", Map.of("path", "linked/keep.md"))).contains("symbolic link");
        assertThat(error("move_file", Map.of("from", "linked/keep.md", "to", "stolen.md"))).contains("symbolic link");
        assertThat(error("move_file", Map.of("from", "MEMORY.md", "to", "linked/MEMORY.md"))).contains("symbolic link");
        assertThat(error("write_file", Map.of("path", "skills/inner/SKILL.md", "content", "x"))).contains("symbolic link");
        assertThat(Files.readString(root.resolve("MEMORY.md"))).isEqualTo("memory\n");
    }

    @Test
    void symlinkedFiles_areNeitherReadNorOverwrittenNorRemoved() throws IOException {
        for (String link : new String[] {"alias.md", "dangling.md"}) {
            assertThat(error("read_file", Map.of("path", link))).contains("symbolic link");
            assertThat(error("write_file", Map.of("path", link, "content", "pwned"))).contains("symbolic link");
            assertThat(error("edit_file", Map.of("path", link, "old_string", "outside", "new_string", "x")))
                    .contains("symbolic link");
            assertThat(error("delete_file", Map.of("path", link))).contains("symbolic link");
            assertThat(error("move_file", Map.of("from", link, "to", "moved.md"))).contains("symbolic link");
            assertThat(error("move_file", Map.of("from", "MEMORY.md", "to", link, "overwrite", true)))
                    .contains("symbolic link");
            assertThat(Files.isSymbolicLink(root.resolve(link))).isTrue();
        }
        assertThat(outside.resolve("not-yet.md")).doesNotExist();
        assertThat(root.resolve("moved.md")).doesNotExist();
    }

    @Test
    void listingAndSearch_reportLinksWithoutFollowingThem() throws IOException {
        JsonNode listing = ok("list_files", Map.of("recursive", true));
        assertThat(listing.toString()).contains("{\"path\":\"linked\",\"type\":\"symlink\"}")
                .doesNotContain("keep.md");
        assertThat(ok("search_files", Map.of("query", "outside text")).path("matches")).isEmpty();
    }

    @Test
    void readOnlyDiff_canBeReadButNotChanged() throws IOException {
        assertThat(ok("read_file", Map.of("path", "phase2_workspace_diff.md")).path("content").asText()).isEqualTo("diff\n");
        assertThat(error("write_file", Map.of("path", "phase2_workspace_diff.md", "content", "x"))).contains("read-only");
        assertThat(error("edit_file", Map.of("path", "./phase2_workspace_diff.md", "old_string", "diff", "new_string", "x")))
                .contains("read-only");
        assertThat(error("delete_file", Map.of("path", "phase2_workspace_diff.md"))).contains("read-only");
        assertThat(error("move_file", Map.of("from", "phase2_workspace_diff.md", "to", "d.md"))).contains("read-only");
        assertThat(error("move_file", Map.of("from", "MEMORY.md", "to", "phase2_workspace_diff.md", "overwrite", true)))
                .contains("read-only");
        assertThat(Files.readString(root.resolve("phase2_workspace_diff.md"))).isEqualTo("diff\n");
    }

    @Test
    void aSymlinkedMemoryRoot_isUsedThroughItsRealPath() throws IOException {
        Path viaLink = Files.createSymbolicLink(temp.resolve("memories-link"), root);
        AgentTools linkedTools = new AgentTools(viaLink);

        JsonNode reply = JSON.readTree(linkedTools.run(call("w", "write_file", Map.of("path", "skills/a.md", "content", "a"))));

        assertThat(reply.has("error")).as(reply.toString()).isFalse();
        assertThat(Files.readString(root.resolve("skills/a.md"))).isEqualTo("a");
        Files.delete(viaLink);
    }

    /** Every file and link under the temp folder except the memory folder's visible contents, plus {@code .git}. */
    private Map<String, String> snapshot() throws IOException {
        Map<String, String> state = new TreeMap<>();
        try (Stream<Path> all = Files.walk(temp)) {
            for (Path path : (Iterable<Path>) all::iterator) {
                boolean inRoot = path.startsWith(root);
                if (inRoot && !path.startsWith(root.resolve(".git")) && !Files.isSymbolicLink(path)) {
                    continue;
                }
                state.put(temp.relativize(path).toString(), describe(path));
            }
        }
        return state;
    }

    private static String describe(Path path) throws IOException {
        if (Files.isSymbolicLink(path)) {
            return "link -> " + Files.readSymbolicLink(path);
        }
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            return "dir";
        }
        return "file " + Files.readString(path);
    }

    private JsonNode ok(String tool, Map<String, ?> arguments) throws IOException {
        JsonNode reply = JSON.readTree(tools.run(call("id", tool, arguments)));
        assertThat(reply.has("error")).as("%s %s answered %s", tool, arguments, reply).isFalse();
        return reply;
    }

    private String error(String tool, Map<String, ?> arguments) throws IOException {
        JsonNode reply = JSON.readTree(tools.run(call("id", tool, arguments)));
        assertThat(reply.has("error")).as("%s %s answered %s", tool, arguments, reply).isTrue();
        return reply.get("error").asText();
    }
}
