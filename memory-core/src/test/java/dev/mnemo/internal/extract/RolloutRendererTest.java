package dev.mnemo.internal.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.internal.redact.DefaultSecretRedactor;
import dev.mnemo.internal.rollout.Fixtures;
import dev.mnemo.internal.rollout.RolloutReader;
import dev.mnemo.internal.rollout.TestRollouts;
import dev.mnemo.spi.SecretRedactor;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RolloutRendererTest {

    private static final long LARGE = 10_000_000;
    private static final String SECRET = "sk-abcdefghijklmnopqrstuvwxyz0123456789";

    private final RolloutRenderer renderer = new RolloutRenderer();
    private final SecretRedactor redactor = new DefaultSecretRedactor();

    @TempDir
    Path dir;

    @Test
    void render_removesAgentsSkillInstructionsDeveloperReasoningAndCompactionButKeepsEnvironment() throws IOException {
        // Codex phase1.rs serializes_memory_rollout_with_agents_removed_but_environment_kept, extended.
        Path file = TestRollouts.withMeta("t")
                .message("developer", "DEVELOPER RULES")
                .message("user", "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nAGENTS BODY\n</INSTRUCTIONS>",
                        "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>")
                .message("user", "<skill>\n<name>demo</name>\nSKILL BODY\n</skill>")
                .message("user", "<user_instructions>INSTRUCTION BODY</user_instructions>")
                .message("user", "Please rename the build step")
                .item("{\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"REASONING\"}]}")
                .call("c1", "shell", "{\"command\":[\"ls\"]}")
                .output("c1", "pom.xml\nsrc")
                .item("{\"type\":\"compaction\",\"encrypted_content\":\"COMPACTED\"}")
                .item("{\"type\":\"image_generation_call\",\"id\":\"i\",\"status\":\"completed\",\"result\":\"IMAGE\"}")
                .message("user", "<subagent_notification>worker finished</subagent_notification>")
                .assistant("commentary", "Looking at the build")
                .assistant("final_answer", "Renamed it.")
                .writeTo(dir.resolve("r.jsonl"));

        RenderedRollout rendered = renderer.render(file, redactor, LARGE);

        assertThat(rendered.text())
                .contains("[harness context]\n<environment_context>", "[human user]\nPlease rename the build step",
                        "[tool] call shell (c1)\n{\"command\":[\"ls\"]}", "[tool] output (c1)\npom.xml\nsrc",
                        "[other agent]\n<subagent_notification>", "[assistant commentary]\nLooking at the build",
                        "[assistant final]\nRenamed it.")
                .doesNotContain("DEVELOPER", "AGENTS BODY", "SKILL BODY", "INSTRUCTION BODY", "REASONING", "COMPACTED",
                        "IMAGE");
        assertThat(rendered.itemsKept()).isEqualTo(7);
        assertThat(rendered.itemsDropped()).isEqualTo(6);
        assertThat(rendered.truncated()).isFalse();
        assertThat(rendered.malformedLines()).isZero();
        assertThat(rendered.originalBytes()).isEqualTo(rendered.text().getBytes(StandardCharsets.UTF_8).length);
        assertThat(rendered.text().indexOf("Please rename")).isLessThan(rendered.text().indexOf("Renamed it."));
    }

    @Test
    void render_redactsSecretsBeforePromptUpload() throws IOException {
        // Codex phase1.rs serializes_memory_rollout_redacts_secrets_before_prompt_upload
        Path file = TestRollouts.withMeta("t")
                .message("user", "use the key " + SECRET + " please")
                .output("c", "export GITHUB_TOKEN=ghp_" + "a1B2".repeat(9))
                .writeTo(dir.resolve("r.jsonl"));

        String text = renderer.render(file, redactor, LARGE).text();

        assertThat(text).doesNotContain(SECRET, "ghp_").contains("use the key [REDACTED_SECRET] please");
    }

    @Test
    void render_everyFixtureFitsEveryBudgetWithoutDeveloperOrReasoningText() throws IOException {
        long[] budgets = {64, 1_000, 16_000, 120_000, LARGE};
        for (Path fixture : Fixtures.all()) {
            for (long budget : budgets) {
                RenderedRollout rendered = renderer.render(fixture, redactor, budget);
                byte[] bytes = rendered.text().getBytes(StandardCharsets.UTF_8);
                assertThat((long) bytes.length).as(fixture + " @ " + budget).isLessThanOrEqualTo(budget);
                assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(rendered.text());
                assertThat(rendered.truncated()).isEqualTo(rendered.originalBytes() > budget);
                assertThat(rendered.text()).doesNotContain("[REDACTED_DEVELOPER_CONTEXT]");
                assertThat(rendered.malformedLines()).isZero();
            }
        }
    }

    @Test
    void render_wholeSessionUnderBudgetKeepsEveryItemButReasoningAndDeveloper() throws IOException {
        Path session = Fixtures.fullSessions().get(0);
        RenderedRollout rendered = renderer.render(session, redactor, LARGE);

        assertThat(rendered.truncated()).isFalse();
        // Counted with an independent JSON tool: 395 response items, 125 of them reasoning.
        assertThat(responseItems(session)).isEqualTo(395);
        assertThat(rendered.itemsKept() + rendered.itemsDropped()).isEqualTo(395);
        assertThat(rendered.itemsDropped()).isBetween(125, 127);
        assertThat(rendered.text()).contains("Updating a team to assign a lead or change from viewer to contributor");
        assertThat(rendered.text()).doesNotContain("\"type\":\"reasoning\"");
    }

    @Test
    void render_overBudgetShortensToolOutputsFirstAndKeepsEveryRequestAndAnswer() throws IOException {
        Path session = Fixtures.fullSessions().get(0); // 1.1 MB, 13 user requests, tool-heavy
        RenderedRollout whole = renderer.render(session, redactor, LARGE);
        long budget = 200_000;

        RenderedRollout fitted = renderer.render(session, redactor, budget);

        assertThat(whole.originalBytes()).isGreaterThan(budget);
        assertThat(fitted.truncated()).isTrue();
        assertThat((long) fitted.text().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(budget);
        assertThat(fitted.text()).contains("bytes omitted …]");
        for (String row : rows(whole.text())) {
            if (row.startsWith("[human user]") || row.startsWith("[assistant final]")) {
                assertThat(fitted.text()).contains(row);
            }
        }
        assertThat(fitted.itemsKept()).isEqualTo(whole.itemsKept());
    }

    @Test
    void render_farOverBudgetDropsToolRowsThenOlderMiddleTurnsWithMarkers() throws IOException {
        TestRollouts rollout = TestRollouts.withMeta("t");
        for (int turn = 1; turn <= 30; turn++) {
            rollout.message("user", "request number " + turn + " " + "r".repeat(300))
                    .call("c" + turn, "shell", "{}")
                    .output("c" + turn, ("output " + turn + "\n").repeat(200))
                    .assistant("final_answer", "answer number " + turn + " " + "a".repeat(300));
        }
        Path file = rollout.writeTo(dir.resolve("r.jsonl"));

        RenderedRollout fitted = renderer.render(file, redactor, 6_000);

        String text = fitted.text();
        assertThat(text.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(6_000);
        assertThat(text).contains("request number 1 ", "request number 30 ", "answer number 30 ")
                .contains("response items omitted …]")
                .doesNotContain("[tool]");
        assertThat(text).doesNotContain("request number 2 ");
        assertThat(fitted.itemsKept() + fitted.itemsDropped()).isEqualTo(120);
    }

    @Test
    void render_neverSplitsACodePointAtAnyBudget() throws IOException {
        Path file = TestRollouts.withMeta("t")
                .message("user", "emoji 😀 " + "😀é中".repeat(100))
                .output("c", "𝄞".repeat(300) + "end")
                .assistant("final_answer", "done ✓ " + "ß".repeat(50))
                .writeTo(dir.resolve("r.jsonl"));

        for (long budget = 1; budget <= 1_600; budget += 7) {
            String text = renderer.render(file, redactor, budget).text();
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            assertThat((long) bytes.length).isLessThanOrEqualTo(budget);
            assertThat(new String(bytes, StandardCharsets.UTF_8)).as("budget " + budget).isEqualTo(text);
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (Character.isHighSurrogate(c)) {
                    assertThat(i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))).isTrue();
                    i++;
                } else {
                    assertThat(Character.isLowSurrogate(c)).isFalse();
                }
            }
        }
    }

    @Test
    void render_countsMalformedLinesAndKeepsGoing() throws IOException {
        Path file = TestRollouts.withMeta("t").raw("{broken").message("user", "still here").raw("{\"type\":")
                .writeTo(dir.resolve("r.jsonl"));

        RenderedRollout rendered = renderer.render(file, redactor, LARGE);

        assertThat(rendered.malformedLines()).isEqualTo(2);
        assertThat(rendered.text()).isEqualTo("[human user]\nstill here");
    }

    @Test
    void render_aHundredMegabyteStyleRolloutStaysWithinBudgetAndMemory() throws IOException {
        Path file = dir.resolve("huge.jsonl");
        String chunk = "x".repeat(1_000_000);
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            out.write("{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"h\"}}\n");
            out.write("{\"timestamp\":\"2026-01-01T00:00:01.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":"
                    + "\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"dump the logs\"}]}}\n");
            for (int i = 0; i < 24; i++) {
                out.write("{\"timestamp\":\"2026-01-01T00:00:02.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":"
                        + "\"function_call_output\",\"call_id\":\"c" + i + "\",\"output\":\"" + chunk + "\"}}\n");
            }
        }

        RenderedRollout rendered = renderer.render(file, redactor, 100_000);

        assertThat(rendered.originalBytes()).isGreaterThan(24_000_000);
        assertThat(rendered.text().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(100_000);
        assertThat(rendered.text()).startsWith("[human user]\ndump the logs");
        assertThat(rendered.itemsKept()).isEqualTo(25);
    }

    @Test
    void render_secretsNearTheCutOfAHugeRowAreRedactedToo() throws IOException {
        String huge = SECRET + " " + "y".repeat(600_000) + " token=" + "z".repeat(40) + " " + "w".repeat(400_000)
                + " " + SECRET;
        Path file = TestRollouts.withMeta("t").output("c", huge).writeTo(dir.resolve("r.jsonl"));

        for (long budget : new long[] {50, 1_000, 100_000, 900_000}) {
            String text = renderer.render(file, redactor, budget).text();
            assertThat((long) text.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(budget);
            assertThat(text).doesNotContain("sk-abcdefghij", "zzzzzzzzzz");
            if (budget >= 1_000) {
                assertThat(text).contains("[REDACTED_SECRET]", "bytes omitted …]");
            }
        }
    }

    @Test
    void render_rejectsNonPositiveBudgetAndNamesAnUnreadableFile() {
        Path missing = dir.resolve("missing.jsonl");
        assertThatThrownBy(() -> renderer.render(Fixtures.SESSION_2026, redactor, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> renderer.render(missing, redactor, 100))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining(missing.toString());
    }

    private static List<String> rows(String text) {
        List<String> rows = new ArrayList<>();
        for (String part : text.split("\n\n(?=\\[)")) {
            rows.add(part);
        }
        return rows;
    }

    private static long responseItems(Path file) throws IOException {
        long[] count = {0};
        RolloutReader.read(file, line -> {
            if (line.kind() == dev.mnemo.internal.rollout.RolloutLine.Kind.RESPONSE_ITEM) {
                count[0]++;
            }
        });
        return count[0];
    }

    @Test
    void render_ofACompressedRolloutIsTheRenderOfItsPlainSource() {
        RenderedRollout plain = renderer.render(dev.mnemo.internal.rollout.CompressedFixtures.FULL_SESSION_PLAIN,
                redactor, LARGE);

        RenderedRollout compressed = renderer.render(dev.mnemo.internal.rollout.CompressedFixtures.FULL_SESSION,
                redactor, LARGE);

        assertThat(compressed.text()).isEqualTo(plain.text()).isNotEmpty();
    }
}
