package dev.mnemo.testkit;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.Role;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TEST DOUBLE standing in for a language model: it knows nothing and answers by rules on the
 * request, so Mnemo's pipeline and an agent built on it can be tested offline and deterministically.
 * Never use it where a real model is meant.
 *
 * <p>It tells Mnemo's three kinds of request apart:
 * <ul>
 *   <li><b>Phase 1 extraction</b> — the request carries an output schema: answered with the JSON
 *       the {@linkplain Builder#extraction extraction rule} gives (default: a fixed memory);</li>
 *   <li><b>consolidation</b> — the request offers the consolidation agent's {@code write_file}
 *       tool: answered by the {@linkplain Builder#consolidation consolidation rule}; the default
 *       reads {@code raw_memories.md} with the agent's {@code read_file} tool, as a real model
 *       must (the prompt names no server path), writes {@code MEMORY.md} and
 *       {@code memory_summary.md} from it (see {@link #writeArtifactsFromRawMemories}), then, once
 *       the write results are back, ends;</li>
 *   <li><b>anything else</b> (your agent's chat) — answered by the {@linkplain Builder#chat chat
 *       rule} (default: the text {@value #DEFAULT_CHAT_REPLY}).</li>
 * </ul>
 * Every request is recorded. Thread-safe: Phase 1 calls it from several threads at once.
 *
 * <pre>{@code
 * ScriptedLanguageModel model = ScriptedLanguageModel.builder()
 *         .extractionReply("- tests run with ./gradlew test --offline", "ran the tests offline", "tests-offline")
 *         .chatReply("Run `./gradlew test --offline`.")
 *         .build();
 * }</pre>
 */
public final class ScriptedLanguageModel implements LanguageModel {

    /** The token usage every reply reports unless {@link Builder#usage} says otherwise. */
    public static final TokenUsage DEFAULT_USAGE = new TokenUsage(100, 10, 20, 5);
    /** What the default chat rule answers. */
    public static final String DEFAULT_CHAT_REPLY = "OK (scripted reply)";
    /** The line the default consolidation writes under "What's in Memory" when there is nothing to list. */
    public static final String DEFAULT_SUMMARY_LINE = "- Nothing remembered yet (scripted consolidation).";

    private static final Pattern MEMORY_ROOT = Pattern.compile("Memory root: (.+)");

    private final Function<ModelRequest, String> extraction;
    private final Function<ModelRequest, ModelResponse> consolidation;
    private final Function<ModelRequest, ModelResponse> chat;
    private final TokenUsage usage;
    private final OptionalInt contextWindow;
    private final List<ModelRequest> requests = new ArrayList<>();

    private ScriptedLanguageModel(Builder builder) {
        this.extraction = builder.extraction;
        this.usage = builder.usage;
        this.consolidation = builder.consolidation != null ? builder.consolidation
                : request -> writeArtifactsFromRawMemories(request, usage);
        this.chat = builder.chat;
        this.contextWindow = builder.contextWindow;
    }

    /**
     * A model with every default rule.
     *
     * @return a new model that has answered nothing yet
     */
    public static ScriptedLanguageModel create() {
        return builder().build();
    }

    /**
     * Starts a model whose rules you choose.
     *
     * @return a new builder holding the default rules
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        Objects.requireNonNull(request, "request");
        synchronized (requests) {
            requests.add(request);
        }
        if (isExtraction(request)) {
            return ModelResponse.ofText(extraction.apply(request), usage);
        }
        if (isConsolidation(request)) {
            return consolidation.apply(request);
        }
        return chat.apply(request);
    }

    @Override
    public OptionalInt contextWindowTokens() {
        return contextWindow;
    }

    /**
     * Every request answered so far, oldest first.
     *
     * @return an immutable copy of the requests; empty before the first call
     */
    public List<ModelRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /**
     * The Phase 1 extraction requests answered so far, oldest first.
     *
     * @return an immutable list of the extraction requests; empty if there was none
     */
    public List<ModelRequest> extractionRequests() {
        return requests().stream().filter(ScriptedLanguageModel::isExtraction).toList();
    }

    /**
     * The consolidation-agent requests answered so far (one per agent turn), oldest first.
     *
     * @return an immutable list of the consolidation requests; empty if there was none
     */
    public List<ModelRequest> consolidationRequests() {
        return requests().stream().filter(r -> !isExtraction(r) && isConsolidation(r)).toList();
    }

    /**
     * How many requests it answered.
     *
     * @return the number of requests answered so far, of every kind
     */
    public int calls() {
        synchronized (requests) {
            return requests.size();
        }
    }

    /**
     * Whether {@code request} is a Phase 1 extraction: it asks for structured output.
     *
     * @param request a request the model was given; not null
     * @return true if the request carries an output schema
     */
    public static boolean isExtraction(ModelRequest request) {
        return request.outputSchema().isPresent();
    }

    /**
     * Whether {@code request} comes from the consolidation agent: it offers {@code write_file}.
     *
     * @param request a request the model was given; not null
     * @return true if one of the request's tools is named {@code write_file}
     */
    public static boolean isConsolidation(ModelRequest request) {
        return request.tools().stream().anyMatch(tool -> tool.name().equals("write_file"));
    }

    /**
     * A Phase 1 reply in Mnemo's strict extraction schema; a null {@code slug} is sent as JSON null.
     *
     * @param rawMemory the {@code raw_memory} text; not null
     * @param rolloutSummary the {@code rollout_summary} text; not null
     * @param slug the {@code rollout_slug}, or null to send JSON null
     * @return the reply as a JSON object text
     */
    public static String stage1Json(String rawMemory, String rolloutSummary, String slug) {
        return "{\"raw_memory\":" + json(rawMemory) + ",\"rollout_summary\":" + json(rolloutSummary)
                + ",\"rollout_slug\":" + (slug == null ? "null" : json(slug)) + "}";
    }

    /**
     * A call of the consolidation agent's {@code write_file} tool.
     *
     * @param callId the id of the tool call, echoed back in its result
     * @param path the file to write, relative to the memory root
     * @param content the whole new content of the file
     * @return the tool call, its arguments as JSON
     */
    public static ToolCall writeFile(String callId, String path, String content) {
        return new ToolCall(callId, "write_file", "{\"path\":" + json(path) + ",\"content\":" + json(content) + "}");
    }

    /**
     * The memory root a consolidation prompt names on its {@code Memory root: } line, if it names an
     * absolute path. Mnemo's own prompt does not (a provider never sees a server path: the root is
     * {@code .} and the agent's tools take paths relative to it), so this is empty for it; a custom
     * agent's prompt may still name one.
     *
     * @param request a consolidation request; not null
     * @return the absolute memory root the first message names, or empty if it names none, a
     *     relative one or an invalid path
     */
    public static Optional<Path> memoryRoot(ModelRequest request) {
        if (request.messages().isEmpty()) {
            return Optional.empty();
        }
        Matcher m = MEMORY_ROOT.matcher(request.messages().get(0).text());
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            Path root = Path.of(m.group(1).trim());
            return root.isAbsolute() ? Optional.of(root) : Optional.empty();
        } catch (java.nio.file.InvalidPathException e) {
            return Optional.empty();
        }
    }

    /** The id of the default consolidation's {@code read_file} call for {@code raw_memories.md}. */
    public static final String READ_RAW_MEMORIES_CALL_ID = "read-raw-memories";

    /**
     * A call of the consolidation agent's {@code read_file} tool for the whole of {@code path}.
     *
     * @param callId the id of the tool call, echoed back in its result
     * @param path the file to read, relative to the memory root
     * @return the tool call, asking for up to 1,000,000 lines
     */
    public static ToolCall readFile(String callId, String path) {
        return new ToolCall(callId, "read_file", "{\"path\":" + json(path) + ",\"max_lines\":1000000}");
    }

    /**
     * The result of the tool call {@code callId} when it is the last message of {@code request}:
     * the file's text for a {@code read_file} that succeeded, empty for an error or another call.
     *
     * @param request a consolidation request; not null
     * @param callId the id of the {@code read_file} call to look for
     * @return the file's content; empty if the last message is not the result of {@code callId}, an
     *     empty string if the result was not readable JSON
     */
    public static Optional<String> readResult(ModelRequest request, String callId) {
        if (!afterToolResults(request)) {
            return Optional.empty();
        }
        var last = request.messages().get(request.messages().size() - 1);
        if (!last.toolCallId().equals(Optional.of(callId))) {
            return Optional.empty();
        }
        try {
            var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(last.text());
            return Optional.of(node.path("content").asText(""));
        } catch (IOException e) {
            return Optional.of("");
        }
    }

    /**
     * Whether the last message of {@code request} is a tool result (the agent ran the calls it was given).
     *
     * @param request a request the model was given; not null
     * @return true if the request has messages and the last one has the {@code TOOL} role
     */
    public static boolean afterToolResults(ModelRequest request) {
        return !request.messages().isEmpty()
                && request.messages().get(request.messages().size() - 1).role() == Role.TOOL;
    }

    /**
     * The default consolidation turn. First it reads {@code raw_memories.md} through the agent's
     * {@code read_file} tool; with that result it calls {@code write_file} twice, for
     * {@code MEMORY.md} (a task group holding the whole of {@code raw_memories.md}) and
     * {@code memory_summary.md} ({@code v1}, a profile, and one line per {@code ## Thread} heading
     * of the raw memories, or {@link #DEFAULT_SUMMARY_LINE}); after the write results, the text
     * "consolidated". A file that cannot be read gives empty raw memories. A prompt that names an
     * absolute memory root (a custom agent's) is read from disk at once, without the first call.
     *
     * @param request the consolidation request of this turn; not null
     * @param usage the token usage the response reports
     * @return the {@code read_file} call, the two {@code write_file} calls, or the final text
     * @throws java.io.UncheckedIOException if an absolute memory root's {@code raw_memories.md}
     *     exists but cannot be read
     */
    public static ModelResponse writeArtifactsFromRawMemories(ModelRequest request, TokenUsage usage) {
        Optional<String> read = readResult(request, READ_RAW_MEMORIES_CALL_ID);
        if (read.isEmpty() && afterToolResults(request)) {
            return ModelResponse.ofText("consolidated", usage);
        }
        Optional<Path> root = memoryRoot(request);
        if (read.isEmpty() && root.isEmpty()) {
            return ModelResponse.ofToolCalls(List.of(readFile(READ_RAW_MEMORIES_CALL_ID, "raw_memories.md")), usage);
        }
        String raw = read.orElseGet(() -> root.map(r -> r.resolve("raw_memories.md")).filter(Files::isRegularFile)
                .map(ScriptedLanguageModel::read).orElse(""));
        String listed = raw.lines().filter(l -> l.startsWith("## Thread")).map(l -> "- " + l.substring(3))
                .reduce("", (a, b) -> a + b + "\n");
        String summary = "v1\n\n## User Profile\nA scripted profile.\n\n## What's in Memory\n"
                + (listed.isEmpty() ? DEFAULT_SUMMARY_LINE + "\n" : listed);
        return ModelResponse.ofToolCalls(List.of(
                writeFile("w1", "MEMORY.md", "# Task Group: everything\n\n" + raw),
                writeFile("w2", "memory_summary.md", summary)), usage);
    }

    /**
     * {@code text} as a JSON string literal, quotes included.
     *
     * @param text the text to quote; not null
     * @return the literal, with quotes, backslashes and control characters escaped
     */
    public static String json(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("the scripted model cannot read " + file, e);
        }
    }

    /** The rules of a {@link ScriptedLanguageModel}; every one has a default. */
    public static final class Builder {

        private Function<ModelRequest, String> extraction =
                request -> stage1Json("a memory", "a summary", "a-slug");
        private Function<ModelRequest, ModelResponse> consolidation;
        private Function<ModelRequest, ModelResponse> chat;
        private TokenUsage usage = DEFAULT_USAGE;
        private OptionalInt contextWindow = OptionalInt.empty();

        private Builder() {
            chat = request -> ModelResponse.ofText(DEFAULT_CHAT_REPLY, usage);
        }

        /**
         * Phase 1 replies: a function from the request to the reply's JSON text (see {@link #stage1Json}).
         *
         * @param replyJson gives the reply's JSON text for each extraction request; not null
         * @return this builder
         */
        public Builder extraction(Function<ModelRequest, String> replyJson) {
            this.extraction = Objects.requireNonNull(replyJson, "replyJson");
            return this;
        }

        /**
         * Every Phase 1 request gets the same memory.
         *
         * @param rawMemory the {@code raw_memory} text of every reply
         * @param rolloutSummary the {@code rollout_summary} text of every reply
         * @param slug the {@code rollout_slug} of every reply, or null to send JSON null
         * @return this builder
         */
        public Builder extractionReply(String rawMemory, String rolloutSummary, String slug) {
            String reply = stage1Json(rawMemory, rolloutSummary, slug);
            return extraction(request -> reply);
        }

        /**
         * Consolidation-agent turns: a function from the request to the response (tool calls, or a final text).
         *
         * @param turn gives the response to each consolidation-agent request; not null
         * @return this builder
         */
        public Builder consolidation(Function<ModelRequest, ModelResponse> turn) {
            this.consolidation = Objects.requireNonNull(turn, "turn");
            return this;
        }

        /**
         * The consolidation writes exactly these two files in its first turn and ends in its second.
         *
         * @param memoryMd the content of {@code MEMORY.md}
         * @param memorySummaryMd the content of {@code memory_summary.md}; it should start with {@code v1}
         * @return this builder
         */
        public Builder consolidationWrites(String memoryMd, String memorySummaryMd) {
            Objects.requireNonNull(memoryMd, "memoryMd");
            Objects.requireNonNull(memorySummaryMd, "memorySummaryMd");
            return consolidation(request -> afterToolResults(request)
                    ? ModelResponse.ofText("consolidated", usage)
                    : ModelResponse.ofToolCalls(List.of(writeFile("w1", "MEMORY.md", memoryMd),
                            writeFile("w2", "memory_summary.md", memorySummaryMd)), usage));
        }

        /**
         * Requests that are neither extraction nor consolidation: your agent's chat turns.
         *
         * @param answer gives the response to each chat request; not null
         * @return this builder
         */
        public Builder chat(Function<ModelRequest, ModelResponse> answer) {
            this.chat = Objects.requireNonNull(answer, "answer");
            return this;
        }

        /**
         * Every chat turn gets this text.
         *
         * @param text the reply to every chat request; not null
         * @return this builder
         */
        public Builder chatReply(String text) {
            Objects.requireNonNull(text, "text");
            return chat(request -> ModelResponse.ofText(text, usage));
        }

        /**
         * The usage every rule-built reply reports; default {@link #DEFAULT_USAGE}.
         *
         * @param usage the token usage to report; not null
         * @return this builder
         */
        public Builder usage(TokenUsage usage) {
            this.usage = Objects.requireNonNull(usage, "usage");
            return this;
        }

        /**
         * The context window it reports; default none.
         *
         * @param tokens the window's size in tokens; at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code tokens} is less than 1
         */
        public Builder contextWindow(int tokens) {
            if (tokens < 1) {
                throw new IllegalArgumentException("contextWindow must be positive, was " + tokens);
            }
            this.contextWindow = OptionalInt.of(tokens);
            return this;
        }

        /**
         * The model.
         *
         * @return a new model with these rules
         */
        public ScriptedLanguageModel build() {
            return new ScriptedLanguageModel(this);
        }
    }
}
