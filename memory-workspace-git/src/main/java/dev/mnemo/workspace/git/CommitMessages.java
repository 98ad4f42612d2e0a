package dev.mnemo.workspace.git;

import dev.mnemo.Consolidation;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.SelectedInput;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Writes and reads the commit messages of the workspace history. A consolidation commit ends with
 * a block of {@code Mnemo-*: value} trailers from which its {@link ConsolidationRecord} is rebuilt;
 * a baseline commit has no {@code Mnemo-Consolidation-Id} trailer.
 *
 * <p>{@code Mnemo-Selected} holds the thread id and its {@code source_updated_at} in epoch seconds
 * (the store keeps seconds, so sub-second parts are not kept).
 */
final class CommitMessages {

    static final String ID = "Mnemo-Consolidation-Id";
    static final String AT = "Mnemo-Finished-At";
    static final String MODEL = "Mnemo-Model";
    static final String INPUTS = "Mnemo-Inputs";
    static final String SELECTED = "Mnemo-Selected";
    static final String INPUT_TOKENS = "Mnemo-Input-Tokens";
    static final String CACHED_INPUT_TOKENS = "Mnemo-Cached-Input-Tokens";
    static final String OUTPUT_TOKENS = "Mnemo-Output-Tokens";
    static final String REASONING_TOKENS = "Mnemo-Reasoning-Tokens";
    static final String RESTORES = "Mnemo-Restores";

    private static final Pattern NO_WHITESPACE = Pattern.compile("\\S+");

    private CommitMessages() {}

    /** The message of a baseline commit: the files as they were, not a consolidation. */
    static String baseline(String reason) {
        return "Mnemo memory baseline\n\n" + reason + "\n";
    }

    /** The message of a consolidation commit (or, with {@code restores}, of a rollback). */
    static String consolidation(ConsolidationRecord record, Optional<String> restores) {
        requireToken("consolidation id", record.id());
        if (record.model().contains("\n") || record.model().contains("\r")) {
            throw new IllegalArgumentException("model must be one line, was " + quoted(record.model()));
        }
        StringBuilder message = new StringBuilder();
        if (restores.isPresent()) {
            message.append("Mnemo rollback ").append(record.id())
                    .append(": restores consolidation ").append(restores.get()).append("\n\n");
        } else {
            message.append("Mnemo consolidation ").append(record.id()).append(": ")
                    .append(record.selected().size()).append(" memories\n\n");
        }
        trailer(message, ID, record.id());
        trailer(message, AT, record.at().toString());
        trailer(message, MODEL, record.model());
        trailer(message, INPUTS, Integer.toString(record.selected().size()));
        TokenUsage usage = record.usage();
        trailer(message, INPUT_TOKENS, Long.toString(usage.inputTokens()));
        trailer(message, CACHED_INPUT_TOKENS, Long.toString(usage.cachedInputTokens()));
        trailer(message, OUTPUT_TOKENS, Long.toString(usage.outputTokens()));
        trailer(message, REASONING_TOKENS, Long.toString(usage.reasoningTokens()));
        for (SelectedInput input : record.selected()) {
            requireToken("thread id", input.threadId());
            trailer(message, SELECTED, input.threadId() + " " + input.sourceUpdatedAt().getEpochSecond());
        }
        restores.ifPresent(id -> trailer(message, RESTORES, id));
        return message.toString();
    }

    /** The record in a commit message, or empty for a baseline or a message we did not write. */
    static Optional<ConsolidationRecord> parse(String message) {
        Map<String, String> single = new LinkedHashMap<>();
        List<SelectedInput> selected = new ArrayList<>();
        for (String line : message.split("\n")) {
            int colon = line.indexOf(": ");
            if (!line.startsWith("Mnemo-") || colon < 0) {
                continue;
            }
            String key = line.substring(0, colon);
            String value = line.substring(colon + 2).strip();
            if (key.equals(SELECTED)) {
                selected.add(parseSelected(value));
            } else {
                single.put(key, value);
            }
        }
        if (!single.containsKey(ID)) {
            return Optional.empty();
        }
        try {
            TokenUsage usage = new TokenUsage(
                    longValue(single, INPUT_TOKENS),
                    longValue(single, CACHED_INPUT_TOKENS),
                    longValue(single, OUTPUT_TOKENS),
                    longValue(single, REASONING_TOKENS));
            return Optional.of(new ConsolidationRecord(
                    single.get(ID),
                    Instant.parse(single.get(AT)),
                    selected,
                    single.getOrDefault(MODEL, ""),
                    usage));
        } catch (DateTimeParseException | NullPointerException e) {
            throw new IllegalStateException("malformed history trailer block for consolidation "
                    + single.get(ID) + ": " + e.getMessage(), e);
        }
    }

    /** The consolidation id this rollback commit restored, if it is one. */
    static Optional<String> restoredId(String message) {
        for (String line : message.split("\n")) {
            if (line.startsWith(RESTORES + ": ")) {
                return Optional.of(line.substring(RESTORES.length() + 2).strip());
            }
        }
        return Optional.empty();
    }

    /** The public summary of a record. */
    static Consolidation summary(ConsolidationRecord record) {
        List<String> threadIds = record.selected().stream().map(SelectedInput::threadId).toList();
        return new Consolidation(record.id(), record.at(), record.selected().size(), threadIds, record.model());
    }

    private static SelectedInput parseSelected(String value) {
        String[] parts = value.split(" ");
        if (parts.length != 2) {
            throw new IllegalStateException("malformed " + SELECTED + " trailer: " + quoted(value));
        }
        try {
            return new SelectedInput(parts[0], Instant.ofEpochSecond(Long.parseLong(parts[1])));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("malformed " + SELECTED + " trailer: " + quoted(value), e);
        }
    }

    private static long longValue(Map<String, String> trailers, String key) {
        String value = trailers.get(key);
        if (value == null) {
            return 0;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("malformed " + key + " trailer: " + quoted(value), e);
        }
    }

    private static void trailer(StringBuilder message, String key, String value) {
        message.append(key).append(": ").append(value).append('\n');
    }

    private static void requireToken(String what, String value) {
        if (!NO_WHITESPACE.matcher(value).matches()) {
            throw new IllegalArgumentException(what + " must be non-empty without whitespace, was " + quoted(value));
        }
    }

    private static String quoted(String value) {
        return "'" + value + "'";
    }
}
