package dev.mnemo.llm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One request to a {@link LanguageModel}.
 *
 * @param model the model name to ask for; empty means the client's configured default
 * @param instructions system-level instructions (may be empty)
 * @param messages the conversation, oldest first
 * @param tools functions the model may call
 * @param outputSchema when present, the answer must be JSON matching it
 * @param reasoningEffort how hard a reasoning model should think
 * @param metadata free-form string tags a client may pass on as request metadata or headers
 */
public record ModelRequest(String model, String instructions, List<ModelMessage> messages, List<ToolSpec> tools,
        Optional<OutputSchema> outputSchema, ReasoningEffort reasoningEffort, Map<String, String> metadata) {

    /**
     * Checks the components.
     *
     * @param model the model name to ask for; empty means the client's configured default
     * @param instructions system-level instructions (may be empty)
     * @param messages the conversation, oldest first
     * @param tools functions the model may call
     * @param outputSchema when present, the answer must be JSON matching it
     * @param reasoningEffort how hard a reasoning model should think
     * @param metadata free-form string tags a client may pass on as request metadata or headers
     */
    public ModelRequest {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(instructions, "instructions");
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        tools = List.copyOf(Objects.requireNonNull(tools, "tools"));
        Objects.requireNonNull(outputSchema, "outputSchema");
        Objects.requireNonNull(reasoningEffort, "reasoningEffort");
        metadata = Map.copyOf(Objects.requireNonNull(metadata, "metadata"));
        if (messages.isEmpty() && instructions.isEmpty()) {
            throw new IllegalArgumentException("a request needs instructions or at least one message");
        }
    }

    /**
     * A builder for a request.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder that starts from this request, for a follow-up turn.
     *
     * @return a builder holding this request's values
     */
    public Builder toBuilder() {
        Builder b = new Builder().model(model).instructions(instructions).messages(messages).tools(tools)
                .reasoningEffort(reasoningEffort).metadata(metadata);
        outputSchema.ifPresent(b::outputSchema);
        return b;
    }

    /** Builds a {@link ModelRequest}; only messages or instructions are required. */
    public static final class Builder {
        private String model = "";
        private String instructions = "";
        private final List<ModelMessage> messages = new ArrayList<>();
        private final List<ToolSpec> tools = new ArrayList<>();
        private OutputSchema outputSchema;
        private ReasoningEffort reasoningEffort = ReasoningEffort.MEDIUM;
        private final Map<String, String> metadata = new LinkedHashMap<>();

        private Builder() {}

        /**
         * The model to ask for.
         *
         * @param model the model name; empty for the client's default
         * @return this builder
         */
        public Builder model(String model) {
            this.model = Objects.requireNonNull(model, "model");
            return this;
        }

        /**
         * The instructions.
         *
         * @param instructions system-level instructions
         * @return this builder
         */
        public Builder instructions(String instructions) {
            this.instructions = Objects.requireNonNull(instructions, "instructions");
            return this;
        }

        /**
         * Appends {@code message} to the conversation.
         *
         * @param message the next message
         * @return this builder
         */
        public Builder message(ModelMessage message) {
            messages.add(Objects.requireNonNull(message, "message"));
            return this;
        }

        /**
         * Replaces the conversation with {@code messages}.
         *
         * @param messages the conversation, oldest first
         * @return this builder
         */
        public Builder messages(List<ModelMessage> messages) {
            this.messages.clear();
            messages.forEach(this::message);
            return this;
        }

        /**
         * Adds {@code tool}.
         *
         * @param tool a function the model may call
         * @return this builder
         */
        public Builder tool(ToolSpec tool) {
            tools.add(Objects.requireNonNull(tool, "tool"));
            return this;
        }

        /**
         * Replaces the tools with {@code tools}.
         *
         * @param tools the functions the model may call
         * @return this builder
         */
        public Builder tools(List<ToolSpec> tools) {
            this.tools.clear();
            tools.forEach(this::tool);
            return this;
        }

        /**
         * Asks for a JSON answer matching {@code outputSchema}.
         *
         * @param outputSchema the schema the answer must match
         * @return this builder
         */
        public Builder outputSchema(OutputSchema outputSchema) {
            this.outputSchema = Objects.requireNonNull(outputSchema, "outputSchema");
            return this;
        }

        /**
         * How hard a reasoning model should think.
         *
         * @param reasoningEffort the effort
         * @return this builder
         */
        public Builder reasoningEffort(ReasoningEffort reasoningEffort) {
            this.reasoningEffort = Objects.requireNonNull(reasoningEffort, "reasoningEffort");
            return this;
        }

        /**
         * Adds one metadata tag.
         *
         * @param key the tag's name
         * @param value its value
         * @return this builder
         */
        public Builder metadata(String key, String value) {
            metadata.put(Objects.requireNonNull(key, "metadata key"), Objects.requireNonNull(value, "metadata value"));
            return this;
        }

        /**
         * Replaces the metadata with {@code metadata}.
         *
         * @param metadata the tags
         * @return this builder
         */
        public Builder metadata(Map<String, String> metadata) {
            this.metadata.clear();
            metadata.forEach(this::metadata);
            return this;
        }

        /**
         * Builds the request.
         *
         * @return the request
         */
        public ModelRequest build() {
            return new ModelRequest(model, instructions, messages, tools, Optional.ofNullable(outputSchema),
                    reasoningEffort, metadata);
        }
    }
}
