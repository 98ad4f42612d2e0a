package dev.mnemo.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.llm.ToolCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Throws 500 seeded random paths — {@code ..}, absolute, percent-encoded, unicode, backslashes,
 * control characters, empty, very long — at every tool and checks that each reply is a JSON object
 * and that nothing outside the memory folder, nor its {@code .git}, links or read-only diff, changed.
 */
class AgentToolsFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SEED = 0x6d6e656d6fL;
    private static final int PATHS = 500;

    @TempDir
    Path temp;

    @Test
    void randomPaths_neverEscapeTheRootAndAlwaysGetJsonReplies() throws IOException {
        Path root = Files.createDirectories(temp.resolve("memories"));
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("keep.md"), "outside\n");
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/config"), "[core]\n");
        Files.writeString(root.resolve("phase2_workspace_diff.md"), "diff\n");
        Files.writeString(root.resolve("MEMORY.md"), "memory\n");
        Files.createDirectories(root.resolve("skills"));
        Files.createSymbolicLink(root.resolve("linked"), outside);
        Files.createSymbolicLink(root.resolve("alias.md"), outside.resolve("keep.md"));
        Files.createSymbolicLink(temp.resolve("sibling-link"), root);
        String tmpEscape = "/tmp/mnemo-fuzz-" + Long.toHexString(SEED) + "-" + ProcessHandle.current().pid();
        Map<String, String> before = protectedState(root);
        AgentTools tools = new AgentTools(root);
        Random random = new Random(SEED);
        List<String> fragments = fragments(root, outside, tmpEscape);

        int errors = 0;
        int calls = 0;
        for (int i = 0; i < PATHS; i++) {
            String path = randomPath(random, fragments);
            String other = randomPath(random, fragments);
            for (ToolCall call : callsFor(i, path, other, random)) {
                String reply = tools.run(call);
                JsonNode node = JSON.readTree(reply);
                assertThat(node.isObject()).as("reply to %s: %s", call, reply).isTrue();
                calls++;
                if (node.has("error")) {
                    errors++;
                    assertThat(node.get("error").asText()).as("reply to %s", call).isNotBlank();
                }
            }
        }

        assertThat(calls).isEqualTo(PATHS * 7);
        assertThat(errors).as("most random paths are refused").isGreaterThan(calls / 2);
        assertThat(protectedState(root)).isEqualTo(before);
        assertThat(Path.of(tmpEscape)).doesNotExist();
        assertThat(Path.of(tmpEscape + ".md")).doesNotExist();
        try (Stream<Path> all = Files.walk(root)) {
            assertThat(all.filter(p -> !p.startsWith(root.resolve(".git")))
                    .filter(p -> Files.isSymbolicLink(p) || p.getFileName().toString().startsWith(".mnemo")))
                    .as("no new links and no leftover temporary files in the root")
                    .extracting(p -> root.relativize(p).toString())
                    .containsExactlyInAnyOrder("linked", "alias.md");
        }
    }

    private static List<ToolCall> callsFor(int i, String path, String other, Random random) {
        List<ToolCall> calls = new ArrayList<>();
        calls.add(call(i, "list_files", "path", path, "recursive", random.nextBoolean()));
        calls.add(call(i, "read_file", "path", path, "start_line", 1 + random.nextInt(3), "max_lines", 5));
        calls.add(call(i, "search_files", "query", "outside", "path", path));
        calls.add(call(i, "write_file", "path", path, "content", "fuzz " + i + "\n"));
        calls.add(call(i, "edit_file", "path", path, "old_string", "fuzz", "new_string", "edited"));
        calls.add(random.nextBoolean()
                ? call(i, "move_file", "from", path, "to", other, "overwrite", random.nextBoolean())
                : call(i, "move_file", "from", other, "to", path, "overwrite", random.nextBoolean()));
        calls.add(call(i, "delete_file", "path", random.nextInt(4) == 0 ? path : other));
        return calls;
    }

    private static List<String> fragments(Path root, Path outside, String tmpEscape) {
        return List.of("..", ".", "", "/", "//", "...", "%2e%2e", "%2e%2e%2f", "..%2f", "%2F", "..%c0%af", "\\", "..\\",
                "..\\..\\outside", "~", "~root", ".git", ".git/config", ".hidden", "skills", "skills/a", "MEMORY.md",
                "notes.md", "linked", "linked/keep.md", "alias.md", "phase2_workspace_diff.md", "sibling-link",
                "../sibling-link", "é", "日本語", "\u202etxt.md", "ｆｕｌｌ", "\u0000", "\n", "\t", " ", "a:b", "C:",
                "*", "?", "\uD83D\uDE00", "\uD800", "a".repeat(300), "b".repeat(100),
                root.toString(), outside.toString(), outside.resolve("keep.md").toString(), tmpEscape, "/tmp",
                "file:///etc/passwd", "\u2024\u2024", "．．");
    }

    private static String randomPath(Random random, List<String> fragments) {
        if (random.nextInt(50) == 0) {
            return "x/".repeat(600);
        }
        StringBuilder path = new StringBuilder();
        int parts = 1 + random.nextInt(5);
        for (int p = 0; p < parts; p++) {
            if (p > 0) {
                path.append(switch (random.nextInt(6)) {
                    case 0 -> "";
                    case 1 -> "\\";
                    default -> "/";
                });
            }
            path.append(fragments.get(random.nextInt(fragments.size())));
        }
        return path.toString();
    }

    private static ToolCall call(int i, String tool, Object... keysAndValues) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (int k = 0; k < keysAndValues.length; k += 2) {
            arguments.put((String) keysAndValues[k], keysAndValues[k + 1]);
        }
        try {
            return new ToolCall("fuzz-" + i, tool, JSON.writeValueAsString(arguments));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Everything under the temp folder outside the root, plus the root's .git, links and read-only diff. */
    private Map<String, String> protectedState(Path root) throws IOException {
        Map<String, String> state = new TreeMap<>();
        try (Stream<Path> all = Files.walk(temp)) {
            for (Path path : (Iterable<Path>) all::iterator) {
                boolean guarded = !path.startsWith(root) || path.startsWith(root.resolve(".git"))
                        || Files.isSymbolicLink(path) || path.equals(root.resolve("phase2_workspace_diff.md"));
                if (guarded && !path.equals(root)) {
                    state.put(temp.relativize(path).toString(), describe(path));
                }
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
        return "file " + Files.size(path) + " " + Files.readString(path).hashCode() + " "
                + Files.getLastModifiedTime(path, LinkOption.NOFOLLOW_LINKS);
    }
}
