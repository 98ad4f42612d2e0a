package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.MemoryMode;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The facts Mnemo uses from a {@code session_meta} payload (read sheet §5.3). Both shapes are
 * understood: newer files name the client in {@code source}; older ones only in
 * {@code originator}.
 *
 * @param id the thread id
 * @param timestamp when the session started, if the payload says
 * @param cwd the working folder, or empty
 * @param source the resolved source: {@code cli}, {@code vscode}, {@code exec}, {@code mcp},
 *     {@code app}, {@code subagent}, ...
 * @param gitBranch the git branch, or empty
 * @param memoryMode the persisted memory mode, when present and known
 * @param project the project key Mnemo recorded ({@value #PROJECT_FIELD}), when present; Codex
 *     writes none, and its rollouts get theirs from {@code cwd}
 */
public record SessionMeta(String id, Optional<Instant> timestamp, String cwd, String source, String gitBranch,
        Optional<MemoryMode> memoryMode, Optional<String> project) {

    /** The field of Mnemo's {@code session_meta} payload naming the session's project. */
    public static final String PROJECT_FIELD = "mnemo_project";

    /** The source of a sub-agent thread; never a memory source. */
    public static final String SUBAGENT_SOURCE = "subagent";

    /** Parses a payload; empty when it has no usable {@code id}. */
    static Optional<SessionMeta> parse(JsonNode payload) {
        String id = ResponseItemParser.text(payload, "id").strip();
        if (id.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new SessionMeta(id, RolloutReader.timestamp(payload.get("timestamp")),
                ResponseItemParser.text(payload, "cwd"), source(payload),
                ResponseItemParser.text(payload.path("git"), "branch"), memoryMode(payload),
                Optional.of(ResponseItemParser.text(payload, PROJECT_FIELD).strip()).filter(p -> !p.isEmpty())));
    }

    /**
     * {@code source} when it is a string; for an object, its key ({@code {"subagent": …}} gives
     * {@code subagent}); a {@code thread_source} of {@code subagent} or
     * {@code memory_consolidation} wins; without {@code source}, the {@code originator} mapping
     * ({@code codex_cli_rs} → cli, {@code codex_vscode} → vscode, {@code codex_exec} → exec),
     * else {@code unknown}.
     */
    static String source(JsonNode payload) {
        String threadSource = ResponseItemParser.text(payload, "thread_source").toLowerCase(Locale.ROOT);
        if (threadSource.equals(SUBAGENT_SOURCE) || threadSource.equals("memory_consolidation")) {
            return threadSource;
        }
        JsonNode source = payload.get("source");
        if (source != null && source.isTextual() && !source.asText().isBlank()) {
            return source.asText().strip().toLowerCase(Locale.ROOT);
        }
        if (source != null && source.isObject() && source.size() > 0) {
            return source.fieldNames().next().toLowerCase(Locale.ROOT);
        }
        switch (ResponseItemParser.text(payload, "originator")) {
            case "codex_cli_rs":
                return "cli";
            case "codex_vscode":
                return "vscode";
            case "codex_exec":
                return "exec";
            default:
                return "unknown";
        }
    }

    private static Optional<MemoryMode> memoryMode(JsonNode payload) {
        String mode = ResponseItemParser.text(payload, "memory_mode");
        if (mode.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(MemoryMode.fromDbValue(mode.strip()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
