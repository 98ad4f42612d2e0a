package dev.mnemo.internal.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RolloutFilesTest {

    private static final Pattern FILE_ID = Pattern.compile("rollout-.{19}-(.{36})\\.jsonl");

    @TempDir
    Path dir;

    @Test
    void readThread_readsTheNewerSessionMetaShapeWithSourceString() {
        ThreadInfo thread = RolloutFiles.readThread(Fixtures.SESSION_2026).orElseThrow();

        assertThat(thread.id()).isEqualTo("019e9625-802f-7e91-840a-cfe88d14117a");
        assertThat(thread.source()).isEqualTo("exec");
        assertThat(thread.cwd()).contains(Path.of("/tmp/agent-history-real-agent/codex/workspace"));
        assertThat(thread.gitBranch()).isEmpty();
        // Not the developer text, not the <environment_context> message: the prompt.
        assertThat(thread.preview()).isEqualTo("[REDACTED_PROMPT]");
        assertThat(thread.createdAt()).isEqualTo(Instant.parse("2026-06-05T04:58:20.593Z"));
        assertThat(thread.updatedAt()).isEqualTo(Instant.parse("2026-06-05T04:58:26.713Z"));
        assertThat(thread.memoryMode()).isEqualTo(MemoryMode.ENABLED);
        assertThat(thread.archived()).isFalse();
        assertThat(thread.rolloutPath()).isEqualTo(Fixtures.SESSION_2026.toAbsolutePath());
    }

    @Test
    void readThread_mapsTheOlderOriginatorOnlyShapeAndReadsTheGitBranch() {
        ThreadInfo thread = RolloutFiles.readThread(Fixtures.SESSION_META_2025).orElseThrow();

        assertThat(thread.id()).isEqualTo("01997e76-d124-7592-9cac-2ec05abbca08");
        assertThat(thread.source()).isEqualTo("vscode");
        assertThat(thread.gitBranch()).contains("fix/team-optimization-v2");
        assertThat(thread.preview()).isEmpty();
        assertThat(thread.updatedAt()).isEqualTo(Instant.parse("2025-09-25T01:22:20.083Z"));
    }

    @Test
    void readThread_isEmptyForFixturesWithoutSessionMeta() {
        for (Path file : List.of(Fixtures.TURN_CONTEXT, Fixtures.FUNCTION_CALL, Fixtures.FUNCTION_OUTPUT)) {
            RolloutFiles.Inspection inspection = RolloutFiles.inspect(file);
            assertThat(inspection.thread()).as(file.toString()).isEmpty();
            assertThat(inspection.problem()).contains("no readable session_meta line");
            assertThat(RolloutFiles.readThread(file)).isEmpty();
        }
    }

    @Test
    void readThread_readsEveryWholeSessionWithIdFromItsFileNameAndTheUsersOwnRequestAsPreview() throws IOException {
        List<Path> sessions = Fixtures.fullSessions();
        assertThat(sessions).hasSize(5);
        for (Path file : sessions) {
            Matcher name = FILE_ID.matcher(file.getFileName().toString());
            assertThat(name.matches()).isTrue();
            ThreadInfo thread = RolloutFiles.readThread(file).orElseThrow();

            assertThat(thread.id()).isEqualTo(name.group(1));
            assertThat(thread.source()).isEqualTo("vscode");
            assertThat(thread.cwd()).contains(Path.of("/Users/jnarowski/Dev/spectora/src/spectora-labs-monorepo-v2"));
            assertThat(thread.gitBranch()).isPresent();
            assertThat(thread.preview()).isNotBlank()
                    .doesNotStartWith("<environment_context>")
                    .doesNotContain("# Context from my IDE setup")
                    .doesNotContain("## My request for Codex:");
            assertThat(thread.updatedAt()).isEqualTo(lastTimestamp(file));
            assertThat(thread.createdAt()).isBefore(thread.updatedAt());
        }
        ThreadInfo first = RolloutFiles.readThread(sessions.get(0)).orElseThrow();
        assertThat(first.preview()).startsWith("Updating a team to assign a lead or change from viewer to contributor");
        assertThat(first.gitBranch()).contains("fix/team-optimization-v2");
    }

    @Test
    void readThread_mapsSubAgentSourceObjectAndThreadSource() throws IOException {
        assertThat(sourceOf("\"source\":{\"subagent\":\"review\"}")).isEqualTo("subagent");
        assertThat(sourceOf("\"source\":{\"subagent\":{\"thread_spawn\":{\"depth\":1}}}")).isEqualTo("subagent");
        assertThat(sourceOf("\"source\":\"cli\",\"thread_source\":\"subagent\"")).isEqualTo("subagent");
        assertThat(sourceOf("\"source\":\"cli\",\"thread_source\":\"user\"")).isEqualTo("cli");
        assertThat(sourceOf("\"originator\":\"codex_cli_rs\"")).isEqualTo("cli");
        assertThat(sourceOf("\"originator\":\"codex_exec\"")).isEqualTo("exec");
        assertThat(sourceOf("\"originator\":\"something_else\"")).isEqualTo("unknown");
        assertThat(sourceOf("\"source\":\"mcp\",\"originator\":\"codex_vscode\"")).isEqualTo("mcp");
    }

    @Test
    void readThread_takesMemoryModeFromSessionMeta() throws IOException {
        Path file = rollout("a.jsonl", meta("\"memory_mode\":\"disabled\""));
        assertThat(RolloutFiles.readThread(file).orElseThrow().memoryMode()).isEqualTo(MemoryMode.DISABLED);

        Path odd = rollout("b.jsonl", meta("\"memory_mode\":\"sometimes\""));
        assertThat(RolloutFiles.readThread(odd).orElseThrow().memoryMode()).isEqualTo(MemoryMode.ENABLED);
    }

    @Test
    void readThread_usesFileModificationTimeWhenNoLineHasATimestamp() throws IOException {
        Path file = rollout("c.jsonl", "{\"type\":\"session_meta\",\"payload\":{\"id\":\"t-1\",\"source\":\"cli\"}}");
        Instant mtime = Instant.parse("2026-03-04T05:06:07Z");
        Files.setLastModifiedTime(file, FileTime.from(mtime));

        ThreadInfo thread = RolloutFiles.readThread(file).orElseThrow();

        assertThat(thread.updatedAt()).isEqualTo(mtime);
        assertThat(thread.createdAt()).isEqualTo(mtime);
    }

    @Test
    void readThread_previewSkipsAgentsMdSkillAndInstructionFragments() throws IOException {
        Path file = rollout("d.jsonl", meta(""),
                user("# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>be nice</INSTRUCTIONS>"),
                user("<user_instructions>always test</user_instructions>"),
                user("<skill>\n<name>x</name>\n</skill>"),
                user("<environment_context><cwd>/repo</cwd></environment_context>"),
                user("Please fix the flaky test"),
                user("second request"));

        assertThat(RolloutFiles.readThread(file).orElseThrow().preview()).isEqualTo("Please fix the flaky test");
    }

    @Test
    void readThread_fallsBackToUserMessageEventForPreview() throws IOException {
        Path file = rollout("e.jsonl", meta(""),
                "{\"timestamp\":\"2026-01-01T00:00:05.000Z\",\"type\":\"event_msg\","
                        + "\"payload\":{\"type\":\"user_message\",\"message\":\"from the event\"}}");

        assertThat(RolloutFiles.readThread(file).orElseThrow().preview()).isEqualTo("from the event");
    }

    @Test
    void readThread_skipsMalformedLinesAndCountsThem() throws IOException {
        Path file = rollout("f.jsonl", "garbage", meta(""), "{\"half\":", user("hello"));

        RolloutFiles.Inspection inspection = RolloutFiles.inspect(file);

        assertThat(inspection.malformedLines()).isEqualTo(2);
        assertThat(inspection.thread().orElseThrow().preview()).isEqualTo("hello");
    }

    @Test
    void readThread_isEmptyForUnreadableOrMetaLessFiles() throws IOException {
        assertThat(RolloutFiles.readThread(dir.resolve("missing.jsonl"))).isEmpty();
        Path noId = rollout("g.jsonl", "{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":\"session_meta\","
                + "\"payload\":{\"cwd\":\"/x\"}}");
        assertThat(RolloutFiles.readThread(noId)).isEmpty();
    }

    @Test
    void readThread_marksRolloutsUnderArchivedSessionsArchived() throws IOException {
        Files.createDirectories(dir.resolve("archived_sessions"));
        Path file = Files.writeString(dir.resolve("archived_sessions/h.jsonl"), meta("") + "\n");

        assertThat(RolloutFiles.readThread(file).orElseThrow().archived()).isTrue();
    }

    private String sourceOf(String fields) throws IOException {
        Path file = rollout("s" + System.nanoTime() + ".jsonl", meta(fields));
        Optional<ThreadInfo> thread = RolloutFiles.readThread(file);
        return thread.orElseThrow().source();
    }

    static String meta(String extraFields) {
        return "{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"t-1\","
                + "\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/repo\""
                + (extraFields.isEmpty() ? "" : "," + extraFields) + "}}";
    }

    static String user(String text) {
        return "{\"timestamp\":\"2026-01-01T00:00:01.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\","
                + "\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":" + quote(text) + "}]}}";
    }

    static String quote(String text) {
        return RolloutReader.MAPPER.getNodeFactory().textNode(text).toString();
    }

    private Path rollout(String name, String... lines) throws IOException {
        return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    private static Instant lastTimestamp(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        String last = lines.get(lines.size() - 1);
        return Instant.parse(RolloutReader.MAPPER.readTree(last).get("timestamp").asText());
    }
}
