package dev.mnemo.internal.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryMode;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadInfo;
import dev.mnemo.internal.extract.RenderedRollout;
import dev.mnemo.internal.extract.RolloutRenderer;
import dev.mnemo.internal.redact.DefaultSecretRedactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlSessionRecorderTest {

    private static final String ID = "0195f000-1111-7222-8333-444455556666";
    private static final Instant START = Instant.parse("2026-03-31T22:30:15.250Z");

    @TempDir
    Path home;

    private final InMemoryThreadStore store = new InMemoryThreadStore();
    private final MutableClock clock = new MutableClock(START, ZoneId.of("Europe/Berlin"));

    private JsonlSessionRecorder recorder(MemoriesConfig config) {
        return new JsonlSessionRecorder(home, store, config, clock);
    }

    private RecordedSession startRoot() {
        return recorder(MemoriesConfig.defaults()).start(
                new SessionContext(ID, "app", false, false, Optional.of(Path.of("/work/project"))));
    }

    @Test
    void start_writesSessionMetaUnderLocalDateFolders() throws IOException {
        try (RecordedSession session = startRoot()) {
            // 22:30 UTC is 00:30 the next day in Berlin (summer time): folders and name use local time.
            Path expected = home.resolve("sessions/2026/04/01/rollout-2026-04-01T00-30-15-" + ID + ".jsonl");
            assertThat(expected).exists();
            JsonNode line = RolloutReader.MAPPER.readTree(Files.readAllLines(expected).get(0));
            assertThat(line.get("timestamp").asText()).isEqualTo("2026-03-31T22:30:15.250Z");
            assertThat(line.get("type").asText()).isEqualTo("session_meta");
            JsonNode payload = line.get("payload");
            assertThat(payload.get("id").asText()).isEqualTo(ID);
            assertThat(payload.get("cwd").asText()).isEqualTo("/work/project");
            assertThat(payload.get("originator").asText()).isEqualTo("mnemo");
            assertThat(payload.get("source").asText()).isEqualTo("app");
            assertThat(session.threadId()).isEqualTo(ID);
        }
    }

    @Test
    void appends_writeCodexResponseItemsEachAWholeLine() throws IOException {
        Path file;
        try (RecordedSession session = startRoot()) {
            session.developerMessage("Be brief.");
            session.userMessage("List the files\nplease");
            session.toolCall("call_1", "shell", "{\"command\":[\"ls\"]}");
            session.toolOutput("call_1", "a.txt\nb.txt");
            session.assistantMessage("Two files: a.txt and b.txt");
            file = store.thread(ID).orElseThrow().rolloutPath();
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(Files.readString(file)).endsWith("\n");
        assertThat(lines).hasSize(6);
        List<JsonNode> payloads = new ArrayList<>();
        for (String line : lines.subList(1, 6)) {
            JsonNode node = RolloutReader.MAPPER.readTree(line);
            assertThat(node.get("type").asText()).isEqualTo("response_item");
            payloads.add(node.get("payload"));
        }
        assertThat(payloads.get(0).toString())
                .isEqualTo("{\"type\":\"message\",\"role\":\"developer\",\"content\":[{\"type\":\"input_text\",\"text\":\"Be brief.\"}]}");
        assertThat(payloads.get(1).get("content").get(0).get("text").asText()).isEqualTo("List the files\nplease");
        assertThat(payloads.get(2).toString()).isEqualTo("{\"type\":\"function_call\",\"name\":\"shell\","
                + "\"arguments\":\"{\\\"command\\\":[\\\"ls\\\"]}\",\"call_id\":\"call_1\"}");
        assertThat(payloads.get(3).toString())
                .isEqualTo("{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":\"a.txt\\nb.txt\"}");
        assertThat(payloads.get(4).get("content").get(0).get("type").asText()).isEqualTo("output_text");
    }

    @Test
    void appends_keepTheThreadRowCurrent() {
        try (RecordedSession session = startRoot()) {
            assertThat(store.upserts).hasSize(1);
            assertThat(store.thread(ID).orElseThrow().preview()).isEmpty();

            clock.advance(Duration.ofMinutes(3));
            session.userMessage("<environment_context><cwd>/x</cwd></environment_context>");
            session.userMessage("Fix the login bug");
            clock.advance(Duration.ofMinutes(2));
            session.userMessage("And the logout bug");

            ThreadInfo thread = store.thread(ID).orElseThrow();
            assertThat(store.upserts).hasSize(4);
            assertThat(thread.preview()).isEqualTo("Fix the login bug");
            assertThat(thread.createdAt()).isEqualTo(START);
            assertThat(thread.updatedAt()).isEqualTo(START.plus(Duration.ofMinutes(5)));
            assertThat(thread.source()).isEqualTo("app");
            assertThat(thread.cwd()).contains(Path.of("/work/project"));
            assertThat(thread.memoryMode()).isEqualTo(MemoryMode.ENABLED);
        }
    }

    @Test
    void start_registersThreadDisabledWhenGenerationIsOff() {
        MemoriesConfig off = MemoriesConfig.builder().generateMemories(false).build();
        try (RecordedSession session = recorder(off).start(SessionContext.root(ID))) {
            session.userMessage("hello");
        }
        assertThat(store.thread(ID).orElseThrow().memoryMode()).isEqualTo(MemoryMode.DISABLED);
        assertThat(RolloutFiles.readThread(store.thread(ID).orElseThrow().rolloutPath()).orElseThrow().memoryMode())
                .isEqualTo(MemoryMode.DISABLED);
    }

    @Test
    void externalContext_marksThePollutedThreadAndLaterAppendsKeepIt() {
        MemoriesConfig strict = MemoriesConfig.builder().disableOnExternalContext(true).build();
        try (RecordedSession session = recorder(strict).start(SessionContext.root(ID))) {
            session.userMessage("search the web");
            session.externalContext("web_search");
            session.assistantMessage("found it");

            assertThat(store.polluted).containsExactly(ID);
            assertThat(store.thread(ID).orElseThrow().memoryMode()).isEqualTo(MemoryMode.POLLUTED);
        }
    }

    @Test
    void externalContext_isIgnoredWhenTheSettingIsOff() {
        try (RecordedSession session = recorder(MemoriesConfig.defaults()).start(SessionContext.root(ID))) {
            session.externalContext("mcp");
        }
        assertThat(store.polluted).isEmpty();
        assertThat(store.thread(ID).orElseThrow().memoryMode()).isEqualTo(MemoryMode.ENABLED);
    }

    @Test
    void appends_keepAStricterModeSetInTheStoreMeanwhile() {
        try (RecordedSession session = startRoot()) {
            store.setThreadMemoryMode(ID, MemoryMode.DISABLED, clock.instant());
            session.userMessage("more");
        }
        assertThat(store.thread(ID).orElseThrow().memoryMode()).isEqualTo(MemoryMode.DISABLED);
    }

    @Test
    void ephemeralSession_writesNothing() throws IOException {
        SessionContext ephemeral = new SessionContext(ID, "app", true, false, Optional.empty());
        try (RecordedSession session = recorder(MemoriesConfig.defaults()).start(ephemeral)) {
            session.userMessage("secret stuff");
            session.toolCall("c", "x", "{}");
            session.externalContext("web");
            assertThat(session.threadId()).isEqualTo(ID);
        }
        assertThat(store.upserts).isEmpty();
        assertThat(home.resolve("sessions")).doesNotExist();
        try (Stream<Path> files = Files.walk(home)) {
            assertThat(files.filter(Files::isRegularFile).collect(Collectors.toList())).isEmpty();
        }
    }

    @Test
    void subAgentSession_isRecordedWithASourceThatNeverBecomesMemory() {
        SessionContext sub = new SessionContext(ID, "app", false, true, Optional.empty());
        try (RecordedSession session = recorder(MemoriesConfig.defaults()).start(sub)) {
            session.userMessage("review this diff");
        }
        ThreadInfo row = store.thread(ID).orElseThrow();
        assertThat(row.source()).isEqualTo("subagent");
        assertThat(MemoriesConfig.defaults().memorySources()).doesNotContain(row.source());
        assertThat(RolloutFiles.readThread(row.rolloutPath()).orElseThrow().source()).isEqualTo("subagent");
    }

    @Test
    void recordedRollout_roundTripsThroughTheReaderAndTheRenderer() {
        String secret = "sk-abcdefghijklmnopqrstuvwxyz0123456789";
        Path file;
        try (RecordedSession session = startRoot()) {
            session.developerMessage("SYSTEM RULES");
            clock.advance(Duration.ofSeconds(5));
            session.userMessage("Deploy with key " + secret);
            session.toolCall("c1", "deploy", "{\"env\":\"prod\"}");
            session.toolOutput("c1", "ok");
            clock.advance(Duration.ofSeconds(7));
            session.assistantMessage("Deployed.");
            file = store.thread(ID).orElseThrow().rolloutPath();
        }

        ThreadInfo read = RolloutFiles.readThread(file).orElseThrow();
        ThreadInfo stored = store.thread(ID).orElseThrow();
        assertThat(read.id()).isEqualTo(ID);
        assertThat(read.source()).isEqualTo("app");
        assertThat(read.cwd()).contains(Path.of("/work/project"));
        assertThat(read.preview()).isEqualTo(stored.preview()).startsWith("Deploy with key");
        assertThat(read.createdAt()).isEqualTo(START);
        assertThat(read.updatedAt()).isEqualTo(stored.updatedAt()).isEqualTo(START.plusSeconds(12));
        assertThat(read.memoryMode()).isEqualTo(MemoryMode.ENABLED);

        RenderedRollout rendered = new RolloutRenderer().render(file, new DefaultSecretRedactor(), 100_000);
        assertThat(rendered.malformedLines()).isZero();
        assertThat(rendered.text()).isEqualTo(String.join("\n\n",
                "[human user]\nDeploy with key [REDACTED_SECRET]",
                "[tool] call deploy (c1)\n{\"env\":\"prod\"}",
                "[tool] output (c1)\nok",
                "[assistant final]\nDeployed."));
    }

    @Test
    void closedSession_refusesMoreLinesNamingTheFile() {
        RecordedSession session = startRoot();
        session.close();
        session.close();

        assertThatThrownBy(() -> session.userMessage("late"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(ID).hasMessageContaining(".jsonl");
    }

    @Test
    void rolloutFileNames_replaceCharactersUnsafeInFileNames() {
        try (RecordedSession session = recorder(MemoriesConfig.defaults()).start(SessionContext.root("../evil/id"))) {
            Path file = store.thread(session.threadId()).orElseThrow().rolloutPath();
            assertThat(file.getFileName().toString()).matches("rollout-2026-04-01T00-30-15-\\.\\._evil_id-[0-9a-f]{12}\\.jsonl");
            assertThat(file.getParent()).isEqualTo(home.resolve("sessions/2026/04/01").toAbsolutePath());
        }
    }

    @Test
    void rolloutFileNames_keepIdsApartThatDifferOnlyInUnsafeCharacters_andStayShort() {
        assertThat(JsonlSessionRecorder.fileId("chat-42")).isEqualTo("chat-42");
        assertThat(JsonlSessionRecorder.fileId("a/b")).isNotEqualTo(JsonlSessionRecorder.fileId("a_b"));
        assertThat(JsonlSessionRecorder.fileId("user@example.com/7")).startsWith("user_example.com_7-");
        assertThat(JsonlSessionRecorder.fileId("x".repeat(300))).hasSize(48 + 1 + 12);
        assertThat(JsonlSessionRecorder.fileId("x".repeat(300))).isNotEqualTo(JsonlSessionRecorder.fileId("x".repeat(301)));
    }

    @Test
    void start_continuesTheRolloutThisHomeRecordedEarlier_withoutASecondSessionMeta() throws IOException {
        Path first;
        try (RecordedSession session = startRoot()) {
            session.userMessage("first turn");
            first = store.thread(ID).orElseThrow().rolloutPath();
        }
        clock.advance(Duration.ofHours(1));
        try (RecordedSession session = startRoot()) {
            session.userMessage("second turn");
        }

        assertThat(store.thread(ID).orElseThrow().rolloutPath()).isEqualTo(first);
        List<String> lines = Files.readAllLines(first);
        assertThat(lines).filteredOn(line -> line.contains("\"session_meta\"")).hasSize(1);
        assertThat(lines).anyMatch(line -> line.contains("first turn")).anyMatch(line -> line.contains("second turn"));
    }

    /** A clock tests move by hand. */
    private static final class MutableClock extends Clock {
        private Instant now;
        private final ZoneId zone;

        MutableClock(Instant now, ZoneId zone) {
            this.now = now;
            this.zone = zone;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return new MutableClock(now, zone);
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
