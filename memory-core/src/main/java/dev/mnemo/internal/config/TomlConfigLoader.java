package dev.mnemo.internal.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.mnemo.Approval;
import dev.mnemo.SelectionPolicy;
import dev.mnemo.HistoryConfig;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryConfigurationException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads the {@code [memories]}, {@code [history]} and {@code [logs]} tables of a {@code config.toml}
 * ({@link #read}: the file read and parsed once, its tables taken from the parse). Other tables are
 * ignored; inside each every key must be known and of the right type, or loading fails with a
 * {@link MemoryConfigurationException} naming the key and the file. Nothing is silently defaulted.
 */
public final class TomlConfigLoader {

    /** The longest {@code logs.retention_days}: about a hundred years. */
    private static final long MAX_RETENTION_DAYS = 36_500;

    private TomlConfigLoader() {}

    /**
     * The TOML parser, built on first use: most homes have no {@code config.toml}, and loading
     * Jackson's databind classes would be most of an engine's cold start.
     */
    private static final class Toml {
        static final TomlMapper MAPPER = new TomlMapper();
    }

    /**
     * Reads and parses {@code file} once; its tables are then read from the parse. A missing file
     * reads as one without tables (and starts no TOML parser).
     *
     * @throws MemoryConfigurationException when the file is not UTF-8 text, not valid TOML, or unreadable
     */
    public static ConfigFile read(Path file) {
        Objects.requireNonNull(file, "configToml");
        try {
            // The file is read before Toml.MAPPER is touched: written as one expression, the
            // receiver would be evaluated (and Jackson initialised) before the file was found missing.
            String text = text(file);
            return new ConfigFile(file, Toml.MAPPER.readTree(text));
        } catch (NoSuchFileException e) {
            return new ConfigFile(file, null);
        } catch (JacksonException e) {
            throw new MemoryConfigurationException(file + " is not valid TOML" + where(e) + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new MemoryConfigurationException("cannot read " + file + ": " + e, e);
        }
    }

    /** {@code read(file).memories()}. */
    public static MemoriesConfig load(Path file) {
        return read(file).memories();
    }

    /** {@code read(file).history()}. */
    public static HistoryConfig loadHistory(Path file) {
        return read(file).history();
    }

    /** One {@code config.toml}, parsed: its {@code [memories]}, {@code [history]} and {@code [logs]} tables. */
    public static final class ConfigFile {
        private final Path file;
        /** The parsed document; null when the file does not exist. */
        private final JsonNode root;

        private ConfigFile(Path file, JsonNode root) {
            this.file = file;
            this.root = root;
        }

        /** The {@code [memories]} table ({@link MemoriesConfig}); the defaults when it is missing. */
        public MemoriesConfig memories() {
            MemoriesConfig.Builder builder = MemoriesConfig.builder();
            for (Value v : values("memories")) {
                apply(builder, v);
            }
            return builder.build();
        }

        /**
         * The {@code [history]} table ({@link HistoryConfig}): {@code persistence} and {@code max_bytes};
         * any other key fails, naming it and the file.
         */
        public HistoryConfig history() {
            HistoryConfig config = HistoryConfig.defaults();
            for (Value v : values("history")) {
                switch (v.key) {
                    case "persistence" -> {
                        String text = v.nonBlankString();
                        try {
                            config = config.withPersistence(HistoryConfig.Persistence.fromToml(text));
                        } catch (IllegalArgumentException e) {
                            throw new MemoryConfigurationException("history.persistence in " + file
                                    + " must be \"save-all\" or \"none\", was \"" + text + "\"", e);
                        }
                    }
                    case "max_bytes" -> {
                        long max = v.integer();
                        if (max < 0) {
                            throw new MemoryConfigurationException("history.max_bytes in " + file
                                    + " must not be negative, was " + max);
                        }
                        config = config.withMaxBytes(max);
                    }
                    default -> throw new MemoryConfigurationException("unknown key history." + v.key + " in " + file);
                }
            }
            return config;
        }

        /**
         * The {@code [logs]} table's {@code retention_days}, in days, when set: a whole number, at least
         * 1. Any other key fails, naming it and the file.
         */
        public Optional<Duration> logsRetention() {
            Optional<Duration> retention = Optional.empty();
            for (Value v : values("logs")) {
                if (!v.key.equals("retention_days")) {
                    throw new MemoryConfigurationException("unknown key logs." + v.key + " in " + file);
                }
                long days = v.integer();
                if (days < 1 || days > MAX_RETENTION_DAYS) {
                    throw new MemoryConfigurationException("logs.retention_days in " + file + " must be a whole number of"
                            + " days from 1 to " + MAX_RETENTION_DAYS + ", was " + days);
                }
                retention = Optional.of(Duration.ofDays(days));
            }
            return retention;
        }

        /** The keys of the named top-level table of {@code file}, in order; none when the file or the table is missing. */
        private List<Value> values(String name) {
            JsonNode table = table(name);
            if (table == null) {
                return List.of();
            }
            List<Value> values = new ArrayList<>();
            Iterator<Map.Entry<String, JsonNode>> fields = table.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                values.add(new Value(file, name, field.getKey(), field.getValue()));
            }
            return values;
        }

        /** The named top-level table; null when the file or the table is missing. */
        private JsonNode table(String name) {
            if (root == null || root.isMissingNode() || root.get(name) == null) {
                return null;
            }
            JsonNode table = root.get(name);
            if (!table.isObject()) {
                throw new MemoryConfigurationException(name + " in " + file + " must be a table, was " + describe(table));
            }
            return table;
        }
    }

    /** The file as text; a file that is not UTF-8 text (or holds NUL bytes, as binary files do) fails saying so. */
    private static String text(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
            if (text.indexOf('\0') >= 0) {
                throw new CharacterCodingException();
            }
            return text;
        } catch (CharacterCodingException e) {
            throw new MemoryConfigurationException(file + " is not UTF-8 text (a config.toml is a UTF-8 TOML file;"
                    + " is it a binary file?)", e);
        }
    }

    /** {@code " at line N, column M"} when the parser knows where it failed. */
    private static String where(JacksonException e) {
        JsonLocation location = e.getLocation();
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " at line " + location.getLineNr()
                + (location.getColumnNr() > 0 ? ", column " + location.getColumnNr() : "");
    }

    private static void apply(MemoriesConfig.Builder b, Value v) {
        switch (v.key) {
            case "generate_memories" -> b.generateMemories(v.bool());
            case "use_memories" -> b.useMemories(v.bool());
            case "dedicated_tools" -> b.dedicatedTools(v.bool());
            case "disable_on_external_context", "no_memories_if_mcp_or_web_search" ->
                    b.disableOnExternalContext(v.bool());
            case "max_raw_memories_for_consolidation" -> b.maxRawMemoriesForConsolidation(v.integer());
            case "max_unused_days" -> b.maxUnusedDays(v.integer());
            case "max_rollout_age_days" -> b.maxRolloutAgeDays(v.integer());
            case "max_rollouts_per_startup" -> b.maxRolloutsPerStartup(v.integer());
            case "min_rollout_idle_hours" -> b.minRolloutIdleHours(v.integer());
            case "min_rate_limit_remaining_percent" -> b.minRateLimitRemainingPercent(v.integer());
            case "extract_model" -> b.extractModel(Optional.of(v.nonBlankString()));
            case "consolidation_model" -> b.consolidationModel(Optional.of(v.nonBlankString()));
            case "memory_sources" -> b.memorySources(v.stringList());
            case "phase1_concurrency" -> b.phase1Concurrency(v.integer());
            case "history_retention" -> b.historyRetention(v.integer());
            case "consolidation_timeout_minutes" -> b.consolidationTimeoutMinutes(v.integer());
            case "summary_token_limit" -> b.summaryTokenLimit(v.integer());
            case "approval" -> b.approval(approval(v));
            case "max_extraction_tokens_per_rollout" -> b.maxExtractionTokensPerRollout(v.integer());
            case "max_extraction_tokens_per_day" -> b.maxExtractionTokensPerDay(v.integer());
            case "selection_policy" -> b.selectionPolicy(selectionPolicy(v));
            case "selection_half_life_days" -> b.selectionHalfLifeDays(v.integer());
            case "selection_new_share_percent" -> b.selectionNewSharePercent(v.integer());
            default -> throw new MemoryConfigurationException("unknown key memories." + v.key + " in " + v.file);
        }
    }

    private static Approval approval(Value v) {
        String value = v.nonBlankString();
        try {
            return Approval.fromConfigValue(value);
        } catch (IllegalArgumentException e) {
            throw new MemoryConfigurationException("memories.approval in " + v.file + " must be \"auto\" or \"ask\", was \""
                    + value + "\"");
        }
    }

    private static SelectionPolicy selectionPolicy(Value v) {
        String value = v.nonBlankString();
        try {
            return SelectionPolicy.fromConfigValue(value);
        } catch (IllegalArgumentException e) {
            throw new MemoryConfigurationException("memories.selection_policy in " + v.file
                    + " must be \"codex\" or \"fair\", was \"" + value + "\"");
        }
    }

    private static String describe(JsonNode node) {
        return switch (node.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> node.isIntegralNumber() ? "an integer" : "a number";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            case OBJECT -> "a table";
            default -> node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private record Value(Path file, String table, String key, JsonNode node) {

        boolean bool() {
            if (!node.isBoolean()) {
                throw wrongType("a boolean");
            }
            return node.booleanValue();
        }

        long integer() {
            if (!node.isIntegralNumber()) {
                throw wrongType("an integer");
            }
            if (!node.canConvertToLong()) {
                return node.bigIntegerValue().signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            return node.longValue();
        }

        String nonBlankString() {
            if (!node.isTextual()) {
                throw wrongType("a string");
            }
            if (node.textValue().isBlank()) {
                throw new MemoryConfigurationException(table + "." + key + " in " + file + " must not be blank");
            }
            return node.textValue();
        }

        List<String> stringList() {
            if (!node.isArray()) {
                throw wrongType("an array of strings");
            }
            List<String> values = new ArrayList<>();
            for (JsonNode element : node) {
                if (!element.isTextual() || element.textValue().isBlank()) {
                    throw wrongType("an array of non-blank strings");
                }
                values.add(element.textValue());
            }
            return values;
        }

        private MemoryConfigurationException wrongType(String expected) {
            return new MemoryConfigurationException(
                    table + "." + key + " in " + file + " must be " + expected + ", was " + describe(node));
        }
    }
}
