package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.store.sqlite.SqliteThreadLogStore;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mnemo threads --tree}, {@code mnemo logs} and the lost log entries of {@code mnemo status}
 * against real homes in a temp folder.
 */
class StateLayerCliTest {

    @TempDir
    Path temp;

    private MnemoCliTest.Result mnemo(String... args) {
        return MnemoCliTest.run(temp, null, args);
    }

    private Path home() {
        return temp.resolve("home");
    }

    private static void record(MemoryEngine engine, SessionContext context, boolean close) {
        RecordedSession session = engine.sessions().start(context);
        session.userMessage("work on " + context.threadId());
        if (close) {
            session.close();
        }
    }

    @Test
    void threadsTree_showsEachSubAgentUnderItsParentWithTheEdgeStatus() {
        try (MemoryEngine engine = MemoryEngine.builder().home(home()).build()) {
            record(engine, SessionContext.root("root"), true);
            record(engine, SessionContext.root("helper").spawnedBy("root"), true);
            record(engine, SessionContext.root("searcher").spawnedBy("root"), false);
            record(engine, SessionContext.root("deep").spawnedBy("helper"), true);
            record(engine, SessionContext.root("alone"), true);

            MnemoCliTest.Result tree = mnemo("--home", home().toString(), "threads", "--tree");

            assertThat(tree.exitCode()).as(tree.err()).isZero();
            String out = tree.out();
            assertThat(out).contains("root  enabled app").contains("└─ [closed] helper  enabled subagent")
                    .contains("└─ [open] searcher").contains("      └─ [closed] deep").contains("alone  enabled app");
            assertThat(out.indexOf("helper")).isLessThan(out.indexOf("deep"));
            assertThat(mnemo("--home", home().toString(), "threads", "--tree", "--json").out())
                    .contains("\"children\"").contains("\"status\" : \"open\"");
        }
    }

    @Test
    void logs_filtersByThreadLevelAndSince() {
        Instant now = Instant.now();
        try (SqliteThreadLogStore store = SqliteThreadLogStore.open(home().resolve("logs.sqlite"))) {
            store.append(List.of(
                    new ThreadLogEntry("chat-1", now.minusSeconds(7200), "INFO", "mnemo::phase1", "old entry"),
                    new ThreadLogEntry("chat-1", now.minusSeconds(60), "WARN", "mnemo::phase1", "phase 1 job failed"),
                    new ThreadLogEntry("mnemo:phase2", now.minusSeconds(30), "INFO", "mnemo::phase2", "step claimed")));
        }
        String h = home().toString();

        assertThat(mnemo("--home", h, "logs").out()).contains("old entry", "phase 1 job failed", "step claimed");
        assertThat(mnemo("--home", h, "logs", "--thread", "chat-1").out()).contains("old entry")
                .doesNotContain("step claimed");
        assertThat(mnemo("--home", h, "logs", "--level", "warn").out()).contains("phase 1 job failed")
                .doesNotContain("old entry").doesNotContain("step claimed");
        assertThat(mnemo("--home", h, "logs", "--since", "1h").out()).doesNotContain("old entry")
                .contains("phase 1 job failed");
        assertThat(mnemo("--home", h, "logs", "--level", "loud").exitCode()).isNotZero();
        assertThat(mnemo("--home", h, "logs", "--since", "yesterday").exitCode()).isNotZero();
    }

    @Test
    void logsOfAConversation_showEachTurnsReceiptAsASentence_andJsonAsAnObject() throws Exception {
        try (MemoryEngine engine = MemoryEngine.builder().home(home()).build()) {
            java.nio.file.Files.createDirectories(home().resolve("memories"));
            java.nio.file.Files.writeString(home().resolve("memories").resolve("memory_summary.md"),
                    "Prefer small commits.");
            try (dev.mnemo.MemorySession session = engine.openSession(SessionContext.root("chat-r"))) {
                session.userMessage("how big should commits be?");
                session.developerInstructions();
                session.callTool("c1", dev.mnemo.MemoryTools.READ, "{\"path\":\"memory_summary.md\"}");
                session.assistantMessage("Small.");
                session.userMessage("thanks");
                session.assistantMessage("You're welcome.");
            }
            engine.threadLogs().flush();
        }
        String h = home().toString();

        String text = mnemo("--home", h, "logs", "--thread", "chat-r").out();
        List<String> receipts = text.lines().filter(line -> line.contains(dev.mnemo.MemoryReceipt.LOG_TARGET)).toList();
        assertThat(receipts).hasSize(2);
        assertThat(receipts.get(0)).contains("memory given: 1 file(s)").contains("read: 1 tool call(s)")
                .contains("cited: none").doesNotContain("{").doesNotContain("sha256");
        assertThat(receipts.get(1)).contains("memory given: 1 file(s)").contains("read: none");
        assertThat(text).doesNotContain("Prefer small commits");

        String json = mnemo("--home", h, "logs", "--thread", "chat-r", "--json").out();
        com.fasterxml.jackson.databind.JsonNode entries = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        List<com.fasterxml.jackson.databind.JsonNode> withReceipt = new ArrayList<>();
        entries.forEach(entry -> {
            if (entry.has("receipt")) {
                withReceipt.add(entry);
            }
        });
        assertThat(withReceipt).hasSize(2);
        com.fasterxml.jackson.databind.JsonNode first = withReceipt.get(0).path("receipt");
        assertThat(first.path("threadId").asText()).isEqualTo("chat-r");
        assertThat(first.path("injected").get(0).path("path").asText()).isEqualTo("memory_summary.md");
        assertThat(first.path("injected").get(0).path("sha256").asText()).hasSize(64);
        assertThat(first.path("reads").get(0).path("tool").asText()).isEqualTo("memories_read");
        assertThat(withReceipt.get(0).path("message").asText()).startsWith("memory given: 1 file(s)")
                .doesNotContain("{");
    }

    @Test
    void logsOfAThread_endWithWhatPhase1WouldDoWithItNow() {
        try (MemoryEngine engine = MemoryEngine.builder().home(home()).build()) {
            record(engine, SessionContext.root("fresh"), true);
            record(engine, SessionContext.root("private"), true);
            engine.threads().setMemoryMode("private", MemoryMode.DISABLED);
            engine.threadLogs().flush();
        }
        String h = home().toString();

        assertThat(mnemo("--home", h, "logs", "--thread", "fresh").out())
                .contains("now: phase 1 would not extract it (not_idle)");
        assertThat(mnemo("--home", h, "logs", "--thread", "private").out())
                .contains("memory mode set to disabled").contains("now: phase 1 would not extract it (memory_mode)");
        assertThat(mnemo("--home", h, "logs", "--thread", "nobody").out())
                .contains("now: no registered thread has this id");
    }

    @Test
    void status_saysNoLogEntryWasLost() {
        try (MemoryEngine engine = MemoryEngine.builder().home(home()).build()) {
            record(engine, SessionContext.root("chat"), true);
        }

        MnemoCliTest.Result status = mnemo("--home", home().toString(), "status");

        assertThat(status.exitCode()).as(status.err()).isZero();
        assertThat(status.out()).contains("Lost log entries:    none\n");
    }

    @Test
    void status_showsTheNewestLossAnyProcessReported() {
        Instant newest = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60); // within the retention
        try (MemoryEngine engine = MemoryEngine.builder().home(home()).build()) {
            // what another process's log writer logs after losing entries
            engine.threadLogs().append(new ThreadLogEntry(ThreadLogs.LOSSES_THREAD,
                    newest.minusSeconds(3600), "WARN", "mnemo::logs", "3 log entries lost; 3 in all"));
            engine.threadLogs().append(new ThreadLogEntry(ThreadLogs.LOSSES_THREAD,
                    newest, "WARN", "mnemo::logs", "7 log entries lost; 10 in all"));
            engine.threadLogs().flush();
        }

        MnemoCliTest.Result status = mnemo("--home", home().toString(), "status");
        MnemoCliTest.Result json = mnemo("--home", home().toString(), "status", "--json");

        assertThat(status.out()).contains("Lost log entries:    0 by this process; newest loss reported "
                + newest + ": 7 log entries lost; 10 in all\n");
        assertThat(json.out().replaceAll("\\s+", " ")).contains("\"thread_log_losses\" : { \"not_kept\" : null,"
                + " \"dropped_by_this_process\" : 0, \"newest_report\" : { \"ts\" : \"" + newest + "\","
                + " \"message\" : \"7 log entries lost; 10 in all\" } }");
    }

    /**
     * Issue 36: on a home from before thread logs and goals, the read-only commands created
     * {@code logs.sqlite} and ran a retention delete. Now they create, migrate and change nothing.
     */
    @Test
    void readOnlyCommands_onAnOlderHome_createNothing_andChangeNoFile() throws Exception {
        try (MemoryEngine engine = MemoryEngine.builder().home(home()).build()) {
            record(engine, SessionContext.root("chat-1"), true);
        }
        for (String name : List.of("logs.sqlite", "goals.sqlite")) { // what an older Mnemo never wrote
            for (String suffix : List.of("", "-wal", "-shm", ".migration-lock")) {
                java.nio.file.Files.deleteIfExists(home().resolve(name + suffix));
            }
        }
        java.util.Map<String, String> before = snapshot(home());
        String h = home().toString();

        assertThat(mnemo("--home", h, "status").exitCode()).isZero();
        assertThat(mnemo("--home", h, "threads").exitCode()).isZero();
        assertThat(mnemo("--home", h, "threads", "--tree").exitCode()).isZero();
        assertThat(mnemo("--home", h, "inputs").exitCode()).isZero();
        mnemo("--home", h, "logs"); // says there are no logs
        mnemo("--home", h, "logs", "--thread", "chat-1");

        assertThat(snapshot(home())).isEqualTo(before);
        assertThat(home().resolve("logs.sqlite")).doesNotExist();
    }

    /** Every file and folder under {@code root} with its size and modification time. */
    private static java.util.Map<String, String> snapshot(Path root) throws java.io.IOException {
        java.util.Map<String, String> files = new java.util.TreeMap<>();
        try (var walk = java.nio.file.Files.walk(root)) {
            for (Path p : walk.toList()) {
                boolean folder = java.nio.file.Files.isDirectory(p);
                files.put(root.relativize(p).toString(), (folder ? "dir " : java.nio.file.Files.size(p) + " bytes ")
                        + java.nio.file.Files.getLastModifiedTime(p).toMillis());
            }
        }
        return files;
    }
}
