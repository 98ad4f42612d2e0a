package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engine.tools()} fuzzed with 1,000 seeded random calls (dot-dot, absolute, percent-encoded,
 * look-alike unicode, NUL, symlinks in the tree pointing out of it): every reply is a JSON object,
 * nothing outside the memory root is read, and nothing outside it is written.
 */
class MemoryToolsFuzzTest {

    private static final int CALLS = 1_000;
    private static final String OUTSIDE_MARKER = "OUTSIDE-SECRET-7f3a";
    private static final String HOME_MARKER = "HOME-SECRET-91c2";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void thousandRandomCalls_stayInsideTheRoot_andAlwaysAnswerJson() throws Exception {
        Path home = tmp.resolve("home");
        Path root = home.resolve("memories");
        Path outside = tmp.resolve("outside");
        Files.createDirectories(root.resolve("rollout_summaries"));
        Files.createDirectories(outside);
        Files.writeString(outside.resolve("secret.txt"), OUTSIDE_MARKER + "\n");
        Files.writeString(home.resolve("config.toml"), "# " + HOME_MARKER + "\n[memories]\ndedicated_tools = true\n");
        Files.writeString(root.resolve("MEMORY.md"), "# Memory\n- build is flaky\n");
        Files.writeString(root.resolve("memory_summary.md"), "v1\nflaky build\n");
        Files.writeString(root.resolve("rollout_summaries/2026-03-02-flaky.md"), "thread: flaky build\n");
        Files.createSymbolicLink(root.resolve("rollout_summaries/escape"), outside);
        Files.createSymbolicLink(root.resolve("leak.md"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("home-config.md"), Path.of("../config.toml"));
        Files.createSymbolicLink(root.resolve("inner-link.md"), Path.of("MEMORY.md"));
        Map<String, String> before = snapshot(tmp, root);

        List<String> pool = pathPool(outside, home);
        Random random = new Random(0x700L);
        int errors = 0;
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(MemoriesConfig.builder()
                .dedicatedTools(true).build()).model(FaultModel.unused()).clock(TestHomes.at(TestHomes.PIPELINE))
                .build()) {
            MemoryTools tools = engine.tools();
            List<String> names = new ArrayList<>(tools.specs().stream().map(s -> s.name()).toList());
            names.add("memories_delete");
            names.add("");
            for (int i = 0; i < CALLS; i++) {
                String tool = names.get(random.nextInt(names.size()));
                String args = random.nextBoolean() ? wellShaped(tool, random, pool) : arguments(random, pool);
                String reply = tools.call(tool, args);
                JsonNode node = JSON.readTree(reply);
                assertThat(node.isObject()).as("call %d %s %s -> %s", i, tool, args, reply).isTrue();
                assertThat(reply).as("call %d %s %s", i, tool, args).doesNotContain(OUTSIDE_MARKER)
                        .doesNotContain(HOME_MARKER);
                if (node.has("error")) {
                    errors++;
                }
            }
        }
        System.out.println("[tools-fuzz] calls=" + CALLS + " errorReplies=" + errors);
        assertThat(CALLS - errors).as("calls that succeeded (the fuzz must reach the tools, not only the parser)")
                .isGreaterThan(100);
        Map<String, String> after = snapshot(tmp, root);
        // The engine's own databases (state and thread logs) change as it runs; the tools never name them.
        after.keySet().removeIf(p -> p.startsWith("home/mnemo.sqlite") || p.startsWith("home/logs.sqlite"));
        before.keySet().removeIf(p -> p.startsWith("home/mnemo.sqlite") || p.startsWith("home/logs.sqlite"));
        assertThat(after).as("files outside the memory root").isEqualTo(before);
    }

    private static List<String> pathPool(Path outside, Path home) {
        return List.of("", ".", "..", "../", "../..", "/", "MEMORY.md", "memory_summary.md", "rollout_summaries",
                "rollout_summaries/", "rollout_summaries/2026-03-02-flaky.md", "rollout_summaries/escape",
                "rollout_summaries/escape/secret.txt", "leak.md", "home-config.md", "inner-link.md",
                "../config.toml", "../../outside/secret.txt", outside.resolve("secret.txt").toString(),
                outside.toString(), home.resolve("config.toml").toString(), "/etc/passwd", "%2e%2e/config.toml",
                "..%2fconfig.toml", "\u2024\u2024/config.toml", "\uff0e\uff0e/config.toml", "..\\..\\config.toml",
                "a\u0000b", "~", "~/.ssh/id_rsa", "$HOME", "extensions/ad_hoc/notes/../../../../config.toml",
                "extensions/ad_hoc/notes", "re\u0301sume\u0301.md", "x".repeat(300), "./././MEMORY.md", "//MEMORY.md",
                "MEMORY.md/..", "rollout_summaries/../../config.toml", "file:///etc/passwd", "\n", " ", "*", "?");
    }

    private static String arguments(Random random, List<String> pool) {
        StringBuilder json = new StringBuilder("{");
        String[] keys = {"path", "filename", "note", "queries", "cursor", "max_results", "line_offset", "max_lines",
                "match_mode", "unknown"};
        int n = random.nextInt(4);
        for (int k = 0; k < n; k++) {
            if (k > 0) {
                json.append(',');
            }
            json.append(FaultModel.quote(keys[random.nextInt(keys.length)])).append(':').append(value(random, pool));
        }
        String result = json.append('}').toString();
        return switch (random.nextInt(20)) {
            case 0 -> "not json";
            case 1 -> "";
            case 2 -> "[]";
            case 3 -> result.substring(0, result.length() / 2);
            default -> result;
        };
    }

    /** Arguments of the right shape for {@code tool}, with a random path from the pool. */
    private static String wellShaped(String tool, Random random, List<String> pool) {
        String path = FaultModel.quote(pick(random, pool));
        return switch (tool) {
            case "memories_read" -> "{\"path\":" + path + "}";
            case "memories_search" -> "{\"queries\":[" + FaultModel.quote(random.nextBoolean() ? "flaky" : "SECRET")
                    + "]" + (random.nextBoolean() ? ",\"path\":" + path : "") + "}";
            case "memories_add_ad_hoc_note" -> "{\"filename\":" + path + ",\"note\":\"remember " + random.nextInt()
                    + "\"}";
            default -> random.nextBoolean() ? "{}" : "{\"path\":" + path + "}";
        };
    }

    private static String value(Random random, List<String> pool) {
        return switch (random.nextInt(8)) {
            case 0 -> Integer.toString(random.nextInt(5_000) - 100);
            case 1 -> "null";
            case 2 -> "[" + FaultModel.quote(pick(random, pool)) + "]";
            case 3 -> "{\"type\":\"all\"}";
            case 4 -> FaultModel.quote(pick(random, pool) + "/" + pick(random, pool));
            default -> FaultModel.quote(pick(random, pool));
        };
    }

    private static String pick(Random random, List<String> pool) {
        return pool.get(random.nextInt(pool.size()));
    }

    /** Every path under {@code dir} outside {@code root}, with its content (or a marker for folders and links). */
    private static Map<String, String> snapshot(Path dir, Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(p -> !p.startsWith(root)).toList()) {
                String key = dir.relativize(p).toString();
                files.put(key, Files.isSymbolicLink(p) ? "link" : Files.isDirectory(p) ? "dir"
                        : Files.readString(p, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        return files;
    }
}
