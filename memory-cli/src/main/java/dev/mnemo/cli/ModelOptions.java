package dev.mnemo.cli;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.openai.OpenAiLanguageModel;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import picocli.CommandLine;

/**
 * The model a run is configured with: the environment's model variables with the global flags
 * ({@code --model}, {@code --base-url}, {@code --api}, {@code --reasoning-effort}) applied over them,
 * the model they create, and what names it in history and reports. {@link MnemoCli} makes one from
 * its options whenever a command asks; a half-configured model is a usage problem naming the
 * variable or flag.
 *
 * @param environment the environment the CLI runs in
 * @param modelName {@code --model}, or null
 * @param baseUrl {@code --base-url}, or null
 * @param api {@code --api}, or null
 * @param reasoningEffort {@code --reasoning-effort}, or null
 */
record ModelOptions(Map<String, String> environment, String modelName, String baseUrl, String api,
        String reasoningEffort) {

    /** The model variables a real run needs, for error messages. */
    static final String HELP = """
            Set the model through environment variables (or --model/--base-url/--api):
              MNEMO_MODEL       the model name (required), e.g. gpt-4.1-mini, or llama3.1 on Ollama
              OPENAI_API_KEY    the API key (required for https://api.openai.com)
              OPENAI_BASE_URL   the API root, e.g. http://localhost:11434/v1 for Ollama (default OpenAI)
              MNEMO_MODEL_API   chat (Chat Completions, default) or responses
              MNEMO_CONTEXT_WINDOW  the model's context window in tokens (set it for local models)
              MNEMO_REASONING_EFFORT  none, low, medium or high (default: each phase's own;
                                dropped by itself for a model that rejects it)""";

    /** The values {@code --api} accepts. */
    static final List<String> API_VALUES = List.of("chat", "responses");

    /**
     * The configured model, if any, made by {@code factory}; a bad {@code --api} is a parameter
     * problem of {@code commandLine}, a half-configured model a usage problem naming the variable or flag.
     */
    Optional<LanguageModel> create(MnemoCli.ModelFactory factory, CommandLine commandLine) {
        if (api != null && !API_VALUES.contains(api)) {
            throw new CommandLine.ParameterException(commandLine,
                    "--api must be one of " + String.join(", ", API_VALUES) + ", was '" + api + "'");
        }
        try {
            return factory.create(modelEnvironment());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new MnemoCli.UsageProblem("the model is not configured correctly: " + e.getMessage() + "\n" + HELP);
        }
    }

    /** The model name the run uses ({@code --model}, else {@code MNEMO_MODEL}), for the history. */
    Optional<String> configuredModelName() {
        return Optional.ofNullable(modelEnvironment().get("MNEMO_MODEL")).filter(name -> !name.isBlank());
    }

    /** The environment with the model flags applied over it. */
    private Map<String, String> modelEnvironment() {
        Map<String, String> merged = new HashMap<>(environment);
        if (modelName != null) {
            merged.put("MNEMO_MODEL", modelName);
        }
        if (baseUrl != null) {
            merged.put("OPENAI_BASE_URL", baseUrl);
        }
        if (api != null) {
            merged.put("MNEMO_MODEL_API", api);
        }
        if (reasoningEffort != null) {
            merged.put("MNEMO_REASONING_EFFORT", reasoningEffort);
        }
        return merged;
    }

    /**
     * What identifies the configured model besides its name, for a report to record: the endpoint
     * ({@code base_url}, OpenAI's unless set), the {@code api}, and the reasoning effort, context
     * window and Azure API version when set. Never the API key or headers.
     */
    Map<String, String> modelSettings() {
        Map<String, String> env = modelEnvironment();
        Map<String, String> settings = new TreeMap<>();
        String baseUrl = env.getOrDefault("OPENAI_BASE_URL", "").strip();
        settings.put("base_url", baseUrl.isEmpty() ? OpenAiLanguageModel.DEFAULT_BASE_URL.toString()
                : baseUrl.replaceAll("/+$", ""));
        String api = env.getOrDefault("MNEMO_MODEL_API", "").strip().toLowerCase(Locale.ROOT);
        settings.put("api", api.isEmpty() ? API_VALUES.get(0) : api);
        putIfSet(settings, "reasoning_effort", env.get("MNEMO_REASONING_EFFORT"));
        putIfSet(settings, "context_window", env.get("MNEMO_CONTEXT_WINDOW"));
        putIfSet(settings, "azure_api_version", env.get("OPENAI_API_VERSION"));
        return settings;
    }

    private static void putIfSet(Map<String, String> settings, String key, String value) {
        if (value != null && !value.isBlank()) {
            settings.put(key, value.strip().toLowerCase(Locale.ROOT));
        }
    }

    /** The settings with the model this run uses named as the consolidation model, so history shows it. */
    static UnaryOperator<MemoriesConfig> namingModel(Optional<String> modelName) {
        return config -> config.consolidationModel().isPresent() || modelName.isEmpty() ? config
                : config.toBuilder().consolidationModel(modelName).build();
    }

    /** An OpenAI-compatible model from {@code environment}; empty when {@code MNEMO_MODEL} is unset. */
    static Optional<LanguageModel> modelFromEnvironment(Map<String, String> environment) {
        String name = environment.get("MNEMO_MODEL");
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(OpenAiLanguageModel.fromEnvironment(environment));
    }
}
