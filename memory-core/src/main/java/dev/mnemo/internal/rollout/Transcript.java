package dev.mnemo.internal.rollout;

import dev.mnemo.TranscriptLine;
import dev.mnemo.spi.SecretRedactor;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A rollout as a person reads it: its messages, tool calls and tool outputs in order, each
 * redacted as memories are. Reasoning, events and context lines are left out; so is opaque content
 * (images, encrypted blobs).
 */
public final class Transcript {

    private Transcript() {}

    /** Reads the rollout from {@code in} ({@code name} names it in log lines); the caller closes it. */
    public static List<TranscriptLine> read(InputStream in, String name, SecretRedactor redactor) throws IOException {
        List<TranscriptLine> lines = new ArrayList<>();
        RolloutReader.read(in, name, kind -> kind == RolloutLine.Kind.RESPONSE_ITEM, line -> {
            if (line.kind() != RolloutLine.Kind.RESPONSE_ITEM) {
                return;
            }
            Instant at = line.timestamp().orElse(Instant.EPOCH);
            ResponseItem item = ResponseItemParser.parse(line.payload());
            if (item instanceof ResponseItem.Message message) {
                add(lines, at, message.role(), text(message.content()), redactor);
            } else if (item instanceof ResponseItem.FunctionCall call) {
                add(lines, at, "tool_call", call.name() + " " + call.arguments(), redactor);
            } else if (item instanceof ResponseItem.FunctionCallOutput output) {
                add(lines, at, "tool_output", output.output(), redactor);
            } else if (item instanceof ResponseItem.CustomToolCall call) {
                add(lines, at, "tool_call", call.name() + " " + call.input(), redactor);
            } else if (item instanceof ResponseItem.CustomToolCallOutput output) {
                add(lines, at, "tool_output", output.output(), redactor);
            }
        });
        return List.copyOf(lines);
    }

    private static String text(List<ResponseItem.Content> content) {
        return content.stream().filter(c -> !c.isOpaque()).map(ResponseItem.Content::text)
                .collect(Collectors.joining("\n"));
    }

    private static void add(List<TranscriptLine> lines, Instant at, String role, String text, SecretRedactor redactor) {
        if (!text.isBlank()) {
            lines.add(new TranscriptLine(at, role, redactor.redact(text)));
        }
    }
}
