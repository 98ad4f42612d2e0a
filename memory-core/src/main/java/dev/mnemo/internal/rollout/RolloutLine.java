package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One well-formed line of a rollout: {@code {"timestamp":…,"type":…,"payload":{…}}}. Only this
 * line's payload is held as a tree, never the whole file.
 *
 * @param lineNumber 1-based line number in the file
 * @param timestampText the line's raw {@code timestamp} string, or null when absent (parsed only on
 *     demand by {@link #timestamp()}: most readers never need it)
 * @param kind the line type
 * @param type the raw {@code type} string (useful when {@code kind} is {@link Kind#UNKNOWN})
 * @param payload the line's payload object; an empty object when the reader was asked not to
 *     build this kind's payload (see {@link RolloutReader#read(java.nio.file.Path,
 *     java.util.function.Predicate, java.util.function.Consumer)})
 */
public record RolloutLine(long lineNumber, String timestampText, Kind kind, String type, JsonNode payload) {

    public RolloutLine {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(payload, "payload");
    }

    /** The line's timestamp, when present and parseable. */
    public Optional<Instant> timestamp() {
        return timestampText == null ? Optional.empty() : RolloutReader.timestamp(timestampText);
    }

    /** The line types Codex writes (read sheet §5.2). */
    public enum Kind {
        SESSION_META("session_meta"),
        RESPONSE_ITEM("response_item"),
        INTER_AGENT_COMMUNICATION("inter_agent_communication"),
        COMPACTED("compacted"),
        TURN_CONTEXT("turn_context"),
        EVENT_MSG("event_msg"),
        /** A type this reader does not know; newer Codex versions may add some. */
        UNKNOWN("");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        /** The {@code type} string on the wire; empty for {@link #UNKNOWN}. */
        public String wireName() {
            return wireName;
        }

        private static final Kind[] KINDS = values();

        static Kind of(String type) {
            for (Kind kind : KINDS) {
                if (kind != UNKNOWN && kind.wireName.equals(type)) {
                    return kind;
                }
            }
            return UNKNOWN;
        }
    }

    /** The {@code payload.type} of an {@code event_msg} or {@code response_item}, or empty. */
    public String payloadType() {
        JsonNode t = payload.get("type");
        return t != null && t.isTextual() ? t.asText() : "";
    }
}
