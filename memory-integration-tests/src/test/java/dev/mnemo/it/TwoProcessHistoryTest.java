package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.HistoryEntry;
import dev.mnemo.MemoryEngine;
import dev.mnemo.testkit.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs record 10,000 user messages into one home's history at once: none lost, none torn. */
class TwoProcessHistoryTest {

    private static final int PER_PROCESS = 5_000;

    @TempDir
    Path tmp;

    @Test
    void twoJvmsAppending10000Lines_loseNone_andTearNone() throws Exception {
        Path home = tmp.resolve("home");
        Path markers = tmp.resolve("markers");
        List<String> threads = List.of("jvm-a", "jvm-b");
        List<Process> children = new ArrayList<>();
        for (String thread : threads) {
            children.add(ChildJvm.start(HistoryChild.class, tmp.resolve(thread + ".log"), home.toString(), thread,
                    Integer.toString(PER_PROCESS), markers.toString()));
        }
        for (int i = 0; i < 2; i++) {
            String thread = threads.get(i);
            ChildJvm.await(thread + " ready", Duration.ofSeconds(120), children.get(i), tmp.resolve(thread + ".log"),
                    () -> Files.exists(markers.resolve("ready-" + thread)));
        }
        Files.writeString(markers.resolve("go"), ""); // both start appending together
        for (int i = 0; i < 2; i++) {
            Process child = children.get(i);
            assertThat(child.waitFor(300, TimeUnit.SECONDS)).as("child %s finished", threads.get(i)).isTrue();
            assertThat(child.exitValue()).as("child %s exit; log:%n%s", threads.get(i),
                    Files.readString(tmp.resolve(threads.get(i) + ".log"))).isZero();
        }

        // Every line whole, in Codex's format, and each process's lines complete and in order.
        byte[] bytes = Files.readAllBytes(home.resolve("history.jsonl"));
        assertThat(bytes[bytes.length - 1]).isEqualTo((byte) '\n');
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(2 * PER_PROCESS);
        ObjectMapper json = new ObjectMapper();
        Map<String, Integer> next = new HashMap<>(Map.of("jvm-a", 0, "jvm-b", 0));
        for (String line : lines) {
            JsonNode node = json.readTree(line);
            assertThat(node.size()).as("fields of %s", line).isEqualTo(3);
            String thread = node.get("session_id").textValue();
            int expected = next.merge(thread, 1, Integer::sum) - 1;
            assertThat(node.get("text").textValue()).isEqualTo(HistoryChild.message(thread, expected));
            assertThat(node.get("ts").canConvertToLong()).isTrue();
        }
        assertThat(next).containsEntry("jvm-a", PER_PROCESS).containsEntry("jvm-b", PER_PROCESS);
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(TestHomes.config()).build()) {
            List<HistoryEntry> recent = engine.messageHistory().recent(20_000);
            assertThat(recent).hasSize(2 * PER_PROCESS);
        }
    }
}
