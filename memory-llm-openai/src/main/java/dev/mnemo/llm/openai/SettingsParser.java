package dev.mnemo.llm.openai;

import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Builder;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Fills an {@link OpenAiLanguageModel.Builder} from environment variables or provider settings. */
final class SettingsParser {

    static final String HEADER_PREFIX = "header.";
    static final Set<String> SETTING_KEYS = Set.of("baseUrl", "apiKey", "apiKeyEnv", "model", "api", "connectTimeout",
            "requestTimeout", "maxRetries", "azureApiVersion", "sendReasoningEffort", "reasoningEffort", "contextWindow",
            "tokenEncoding");

    private SettingsParser() {}

    /** See {@link OpenAiLanguageModel#fromEnvironment(Map)}. */
    static Builder fromEnvironment(Map<String, String> env) {
        Builder b = OpenAiLanguageModel.builder();
        String model = get(env, "MNEMO_MODEL");
        if (model.isEmpty()) {
            throw new IllegalArgumentException("MNEMO_MODEL is not set: name the model to use, e.g. gpt-4.1-mini "
                    + "or llama3.1");
        }
        b.model(model);
        URI baseUrl = OpenAiLanguageModel.DEFAULT_BASE_URL;
        String url = get(env, "OPENAI_BASE_URL");
        if (!url.isEmpty()) {
            baseUrl = uri("OPENAI_BASE_URL", url);
            baseUrl(b, "OPENAI_BASE_URL", baseUrl);
        }
        String key = get(env, "OPENAI_API_KEY");
        if (key.isEmpty() && baseUrl.equals(OpenAiLanguageModel.DEFAULT_BASE_URL)) {
            throw new IllegalArgumentException("OPENAI_API_KEY is not set; it is required for " + baseUrl
                    + " (set OPENAI_BASE_URL to use a local server that needs no key)");
        }
        b.apiKey(key);
        b.api(api("MNEMO_MODEL_API", get(env, "MNEMO_MODEL_API")));
        String azure = get(env, "OPENAI_API_VERSION");
        if (!azure.isEmpty()) {
            b.azure(azure);
        }
        String window = get(env, "MNEMO_CONTEXT_WINDOW");
        if (!window.isEmpty()) {
            b.contextWindow(positive("MNEMO_CONTEXT_WINDOW", window));
        }
        String effort = get(env, "MNEMO_REASONING_EFFORT");
        if (!effort.isEmpty()) {
            b.reasoningEffort(effort("MNEMO_REASONING_EFFORT", effort));
        }
        tokenEncoding(b, "MNEMO_TOKEN_ENCODING", get(env, "MNEMO_TOKEN_ENCODING"));
        return b;
    }

    /** See {@link OpenAiLanguageModelProvider}. */
    static Builder fromSettings(Map<String, String> settings, Map<String, String> env) {
        for (String key : settings.keySet()) {
            if (!SETTING_KEYS.contains(key) && !(key.startsWith(HEADER_PREFIX) && key.length() > HEADER_PREFIX.length())) {
                throw new IllegalArgumentException("unknown openai setting '" + key + "'; known settings: "
                        + SETTING_KEYS.stream().sorted().toList() + " and header.<Name>");
            }
        }
        Builder b = OpenAiLanguageModel.builder();
        String model = get(settings, "model");
        if (model.isEmpty()) {
            throw new IllegalArgumentException("openai setting 'model' is required, e.g. model=gpt-4.1-mini");
        }
        b.model(model);
        String url = get(settings, "baseUrl");
        if (!url.isEmpty()) {
            baseUrl(b, "openai setting 'baseUrl'", uri("openai setting 'baseUrl'", url));
        }
        String keyEnv = get(settings, "apiKeyEnv");
        if (!get(settings, "apiKey").isEmpty() && !keyEnv.isEmpty()) {
            throw new IllegalArgumentException("openai settings 'apiKey' and 'apiKeyEnv' are both set; use one");
        }
        if (!keyEnv.isEmpty()) {
            String key = get(env, keyEnv);
            if (key.isEmpty()) {
                throw new IllegalArgumentException("environment variable " + keyEnv
                        + " (named by openai setting 'apiKeyEnv') is not set");
            }
            b.apiKey(key);
        } else {
            b.apiKey(get(settings, "apiKey"));
        }
        b.api(api("openai setting 'api'", get(settings, "api")));
        String connect = get(settings, "connectTimeout");
        if (!connect.isEmpty()) {
            b.connectTimeout(duration("connectTimeout", connect));
        }
        String request = get(settings, "requestTimeout");
        if (!request.isEmpty()) {
            b.requestTimeout(duration("requestTimeout", request));
        }
        String retries = get(settings, "maxRetries");
        if (!retries.isEmpty()) {
            b.maxRetries(integer("maxRetries", retries));
        }
        String azure = get(settings, "azureApiVersion");
        if (!azure.isEmpty()) {
            b.azure(azure);
        }
        String window = get(settings, "contextWindow");
        if (!window.isEmpty()) {
            b.contextWindow(positive("openai setting 'contextWindow'", window));
        }
        String reasoning = get(settings, "sendReasoningEffort");
        String effort = get(settings, "reasoningEffort");
        if (!reasoning.isEmpty() && !effort.isEmpty()) {
            throw new IllegalArgumentException("openai settings 'sendReasoningEffort' and 'reasoningEffort' are both set;"
                    + " use reasoningEffort");
        }
        if (!reasoning.isEmpty()) {
            b.sendReasoningEffort(bool("sendReasoningEffort", reasoning));
        }
        if (!effort.isEmpty()) {
            b.reasoningEffort(effort("openai setting 'reasoningEffort'", effort));
        }
        tokenEncoding(b, "openai setting 'tokenEncoding'", get(settings, "tokenEncoding"));
        settings.forEach((k, v) -> {
            if (k.startsWith(HEADER_PREFIX)) {
                b.header(k.substring(HEADER_PREFIX.length()), v);
            }
        });
        return b;
    }

    private static String get(Map<String, String> map, String key) {
        String value = map.get(key);
        return value == null ? "" : value.strip();
    }

    private static URI uri(String what, String value) {
        try {
            return new URI(value);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(what + " is not a URL: '" + value + "'", e);
        }
    }

    private static void baseUrl(Builder b, String what, URI url) {
        try {
            b.baseUrl(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
    }

    private static Api api(String what, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "", "chat", "chat_completions", "chat-completions" -> Api.CHAT_COMPLETIONS;
            case "responses" -> Api.RESPONSES;
            default -> throw new IllegalArgumentException(what + " must be 'chat' or 'responses', was '" + value + "'");
        };
    }

    /** An encoding's name, or {@code estimate} for four bytes a token; empty leaves the model's default. */
    private static void tokenEncoding(Builder b, String what, String value) {
        if (value.isEmpty()) {
            return;
        }
        if (value.equalsIgnoreCase("estimate")) {
            b.tokenCounter(TokenCounter.estimate());
            return;
        }
        try {
            b.tokenEncoding(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage() + " or 'estimate'", e);
        }
    }

    /** {@code none}, {@code low}, {@code medium} or {@code high}, in any case. */
    static ReasoningEffort effort(String what, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "none" -> ReasoningEffort.NONE;
            case "low" -> ReasoningEffort.LOW;
            case "medium" -> ReasoningEffort.MEDIUM;
            case "high" -> ReasoningEffort.HIGH;
            default -> throw new IllegalArgumentException(what + " must be none, low, medium or high, was '" + value
                    + "'");
        };
    }

    /** An ISO-8601 duration ({@code PT30S}) or a whole number of seconds. */
    private static Duration duration(String key, String value) {
        try {
            return value.chars().allMatch(Character::isDigit) ? Duration.ofSeconds(Long.parseLong(value))
                    : Duration.parse(value);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException("openai setting '" + key
                    + "' must be seconds or an ISO-8601 duration such as PT30S, was '" + value + "'", e);
        }
    }

    private static int integer(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("openai setting '" + key + "' must be a whole number, was '" + value
                    + "'", e);
        }
    }

    private static int positive(String what, String value) {
        try {
            int tokens = Integer.parseInt(value);
            if (tokens > 0) {
                return tokens;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(what + " must be a positive whole number of tokens, was '" + value + "'");
    }

    private static boolean bool(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("openai setting '" + key + "' must be true or false, was '"
                    + value + "'");
        };
    }
}
