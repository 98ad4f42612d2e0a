package dev.mnemo.llm.openai;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.RateLimitSnapshot;
import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.TokenCounter;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LanguageModel} for OpenAI and the servers that speak its HTTP API: Azure OpenAI, Ollama,
 * vLLM, the llama.cpp server, LM Studio and similar.
 *
 * <p>Build one with {@link #builder()} or {@link #fromEnvironment()}; it is immutable and thread-safe,
 * and all calls share one {@link HttpClient}. Two wire APIs are supported, picked with {@link Api}:
 * <ul>
 *   <li>{@link Api#CHAT_COMPLETIONS} ({@code POST /chat/completions}), the default, because it is the
 *       API every OpenAI-compatible local server implements;</li>
 *   <li>{@link Api#RESPONSES} ({@code POST /responses}), OpenAI's newer API (sent with
 *       {@code store: false}, so OpenAI keeps nothing of the conversation).</li>
 * </ul>
 *
 * <p>How a {@link ModelRequest} is sent: an empty {@link ModelRequest#model()} means the builder's
 * model; instructions become Responses {@code instructions} or a leading Chat {@code system}
 * message; tool calls and their outputs keep their ids (Responses {@code function_call} /
 * {@code function_call_output} items, Chat {@code tool_calls} / {@code tool} messages); tools are
 * strict function tools; an output schema becomes Responses {@code text.format} or Chat
 * {@code response_format} of type {@code json_schema}; reasoning effort becomes
 * {@code reasoning.effort} or {@code reasoning_effort} ({@code NONE} sends nothing;
 * {@link Builder#reasoningEffort} replaces the request's effort). On Chat
 * Completions developer messages go as {@code system} (many local servers' chat templates know no
 * {@code developer} role) and request metadata is not sent; on Responses it is sent as
 * {@code metadata}. A refusal comes back as its text with {@link dev.mnemo.llm.FinishReason#CONTENT_FILTER}.
 *
 * <p>Models without reasoning (OpenAI's {@code gpt-4.1} family, most local models) reject the
 * reasoning parameter with HTTP 400 "Unsupported parameter". When a server does, the client sends
 * the request again once without it and, for the rest of its life, sends no reasoning effort for
 * that model name (logged once at INFO). Set {@link Builder#reasoningEffort} to
 * {@link ReasoningEffort#NONE} to never send it.
 *
 * <p>Failures become {@link ModelException}s carrying the server's own error message. Rate limits
 * (HTTP 429), server errors (5xx), time-outs and network errors are retried up to
 * {@link Builder#maxRetries(int)} times with exponential backoff and jitter, waiting at least as long
 * as a {@code Retry-After} header asks; other client errors (400, 401, 403, 404, ...) never are.
 * After every answer the {@code x-ratelimit-*} headers are kept for {@link #rateLimits()}.
 *
 * <p>{@link #tokenCounter()} counts with the model's own encoding (jtokkit): {@code o200k_base}
 * for {@code gpt-4o*}, {@code gpt-4.1*}, {@code gpt-4.5*}, {@code gpt-5*}, {@code chatgpt-4o*},
 * {@code codex-*}, {@code gpt-oss*} and the o-series ({@code o1}, {@code o3}, {@code o4} and their
 * variants); {@code cl100k_base} for {@code gpt-4}, {@code gpt-4-*} (e.g. {@code gpt-4-turbo}) and
 * {@code gpt-3.5*}. Case, a fine-tune's {@code ft:} prefix and a router's {@code provider/} prefix
 * are ignored. Any other name (a local model served by Ollama, llama.cpp or vLLM, an Azure
 * deployment name) keeps {@link TokenCounter#estimate()} unless {@link Builder#tokenEncoding} or
 * {@link Builder#tokenCounter} says otherwise. The counter is chosen for the builder's model; a
 * request naming another model is still counted with it. Encodings are loaded on the first count and
 * shared by every client in the JVM.
 *
 * <p>The API key is sent only in the request header; it never appears in logs, exception messages
 * or {@link #toString()}.
 */
public final class OpenAiLanguageModel implements LanguageModel {

    /** The wire API a client speaks. */
    public enum Api {
        /** OpenAI's Responses API, {@code POST {baseUrl}/responses}. */
        RESPONSES,
        /** The Chat Completions API, {@code POST {baseUrl}/chat/completions}, spoken by every compatible server. */
        CHAT_COMPLETIONS
    }

    /** OpenAI's public endpoint, used when no base URL is given. */
    public static final URI DEFAULT_BASE_URL = URI.create("https://api.openai.com/v1");
    /** How long to wait for a TCP/TLS connection unless {@link Builder#connectTimeout} says otherwise. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long one HTTP exchange may take unless {@link Builder#requestTimeout} says otherwise. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(10);
    /** Retries after the first attempt unless {@link Builder#maxRetries} says otherwise. */
    public static final int DEFAULT_MAX_RETRIES = 2;

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(OpenAiLanguageModel.class);

    private final ClientSettings settings;
    private final WireFormat format;
    private final URI endpoint;
    private final RetryingSender sender;
    private final ReasoningEffortFallback reasoning;
    private final OptionalInt contextWindow;

    private OpenAiLanguageModel(ClientSettings settings, HttpClient http, Backoff backoff, Sleeper sleeper,
            OptionalInt contextWindow) {
        this.settings = settings;
        this.contextWindow = contextWindow;
        ErrorMapping errors = new ErrorMapping(settings.apiKey());
        this.format = settings.api() == Api.RESPONSES ? new ResponsesFormat(errors) : new ChatCompletionsFormat(errors);
        this.endpoint = settings.endpoint(format.path());
        this.sender = new RetryingSender(settings, http, backoff, sleeper);
        this.reasoning = new ReasoningEffortFallback(format, sender, endpoint, settings.reasoningEffort());
    }

    /**
     * A builder for a client; only {@link Builder#model(String)} is required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A client configured from the process environment; see {@link #fromEnvironment(Map)}.
     *
     * @return the client
     * @throws IllegalArgumentException when a variable is missing or malformed, naming it
     */
    public static OpenAiLanguageModel fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * A client configured from {@code env}:
     * <ul>
     *   <li>{@code MNEMO_MODEL} (required): the model name, e.g. {@code gpt-4.1-mini} or {@code llama3.1};</li>
     *   <li>{@code OPENAI_BASE_URL}: the API root, default {@code https://api.openai.com/v1}
     *       (Ollama: {@code http://localhost:11434/v1}, vLLM: {@code http://localhost:8000/v1});</li>
     *   <li>{@code OPENAI_API_KEY}: the key; required only for the default public endpoint, since
     *       local servers usually need none;</li>
     *   <li>{@code MNEMO_MODEL_API}: {@code chat} (default: Chat Completions, which Ollama, vLLM,
     *       llama.cpp and LM Studio all speak) or {@code responses};</li>
     *   <li>{@code OPENAI_API_VERSION}: when set, Azure OpenAI mode with this {@code api-version}
     *       (the base URL is then the resource's {@code .../openai} or deployment URL);</li>
     *   <li>{@code MNEMO_CONTEXT_WINDOW}: the model's context window in tokens (see
     *       {@link Builder#contextWindow(int)});</li>
     *   <li>{@code MNEMO_REASONING_EFFORT}: {@code none}, {@code low}, {@code medium} or {@code high}:
     *       the reasoning effort sent with every request instead of the request's own, {@code none}
     *       sending no reasoning parameter (see {@link Builder#reasoningEffort});</li>
     *   <li>{@code MNEMO_TOKEN_ENCODING}: {@code o200k_base}, {@code cl100k_base} (or another of
     *       {@link Builder#tokenEncoding}'s names) or {@code estimate}: how tokens are counted instead
     *       of with the model's own encoding (see {@link #tokenCounter()}).</li>
     * </ul>
     *
     * @param env the variables, by name
     * @return the client
     * @throws IllegalArgumentException when a variable is missing or malformed, naming it
     */
    public static OpenAiLanguageModel fromEnvironment(Map<String, String> env) {
        return SettingsParser.fromEnvironment(env).build();
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        Objects.requireNonNull(request, "request");
        String model = request.model().isEmpty() ? settings.model() : request.model();
        String answer = reasoning.send(request, model);
        ModelResponse response = format.decode(WireFormat.answer(answer, endpoint), endpoint);
        LOG.debug("Model {} at {} finished with {} ({} input, {} output tokens, {} tool calls)", model, endpoint,
                response.finishReason(), response.usage().inputTokens(), response.usage().outputTokens(),
                response.toolCalls().size());
        return response;
    }

    /**
     * The counter set with {@link Builder#tokenCounter} or {@link Builder#tokenEncoding}, else the
     * model's own encoding when the model name is one of OpenAI's (see the class description), else
     * {@link TokenCounter#estimate()}. Thread-safe.
     */
    @Override
    public TokenCounter tokenCounter() {
        return settings.tokenCounter();
    }

    @Override
    public Optional<RateLimitSnapshot> rateLimits() {
        return sender.rateLimits();
    }

    /** The context window set with {@link Builder#contextWindow(int)} or {@code MNEMO_CONTEXT_WINDOW}. */
    @Override
    public OptionalInt contextWindowTokens() {
        return contextWindow;
    }

    /** Describes the client without its API key or header values. */
    @Override
    public String toString() {
        return "OpenAiLanguageModel[endpoint=" + endpoint + ", model=" + settings.model() + ", api=" + settings.api()
                + ", apiKey=" + (settings.apiKey().isEmpty() ? "none" : "***")
                + ", azureApiVersion=" + settings.azureApiVersion().orElse("none")
                + ", headers=" + settings.headers().keySet() + ", maxRetries=" + settings.maxRetries()
                + ", reasoningEffort=" + settings.reasoningEffort().map(Enum::name).orElse("per request")
                + ", tokenCounter=" + settings.tokenCounter() + "]";
    }

    /**
     * Configures an {@link OpenAiLanguageModel}. Setters reject bad values at once; {@link #build()}
     * checks that a model was named.
     */
    public static final class Builder {
        private URI baseUrl = DEFAULT_BASE_URL;
        private String apiKey = "";
        private String model;
        private Api api = Api.CHAT_COMPLETIONS;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private String azureApiVersion;
        private Optional<ReasoningEffort> reasoningEffort = Optional.empty();
        private OptionalInt contextWindow = OptionalInt.empty();
        private TokenCounter tokenCounter;
        private Sleeper sleeper = Sleeper.THREAD_SLEEP;
        private DoubleSupplier jitter = () -> ThreadLocalRandom.current().nextDouble();
        private Clock clock = Clock.systemUTC();

        private Builder() {}

        /**
         * The API root that {@code /chat/completions} or {@code /responses} is appended to; default {@link #DEFAULT_BASE_URL}.
         *
         * @param baseUrl an absolute http(s) URL without a query string
         * @return this builder
         */
        public Builder baseUrl(URI baseUrl) {
            Objects.requireNonNull(baseUrl, "baseUrl");
            String scheme = baseUrl.getScheme() == null ? "" : baseUrl.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || baseUrl.getHost() == null) {
                throw new IllegalArgumentException("baseUrl must be an absolute http(s) URL, was " + baseUrl);
            }
            if (baseUrl.getRawQuery() != null) {
                throw new IllegalArgumentException("baseUrl must not have a query string, was " + baseUrl);
            }
            this.baseUrl = baseUrl;
            return this;
        }

        /**
         * The API key; empty (the default) sends no credentials, as local servers expect.
         *
         * @param apiKey the key, or empty for none
         * @return this builder
         */
        public Builder apiKey(String apiKey) {
            this.apiKey = Objects.requireNonNull(apiKey, "apiKey").strip();
            return this;
        }

        /**
         * The model used when a {@link ModelRequest#model()} is empty (required).
         *
         * @param model the model name, e.g. {@code gpt-4.1-mini}
         * @return this builder
         */
        public Builder model(String model) {
            Objects.requireNonNull(model, "model");
            if (model.isBlank()) {
                throw new IllegalArgumentException("model must not be blank");
            }
            this.model = model.strip();
            return this;
        }

        /**
         * The wire API; default {@link Api#CHAT_COMPLETIONS}.
         *
         * @param api Chat Completions or Responses
         * @return this builder
         */
        public Builder api(Api api) {
            this.api = Objects.requireNonNull(api, "api");
            return this;
        }

        /**
         * How long to wait for a connection; default {@link #DEFAULT_CONNECT_TIMEOUT}.
         *
         * @param connectTimeout a positive duration
         * @return this builder
         */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = requirePositive("connectTimeout", connectTimeout);
            return this;
        }

        /**
         * How long one HTTP exchange (not counting retries) may take; default {@link #DEFAULT_REQUEST_TIMEOUT}.
         *
         * @param requestTimeout a positive duration
         * @return this builder
         */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requirePositive("requestTimeout", requestTimeout);
            return this;
        }

        /**
         * An extra header sent with every request, e.g. {@code OpenAI-Organization} or a proxy's token.
         *
         * @param name the header's name
         * @param value the header's value
         * @return this builder
         */
        public Builder header(String name, String value) {
            Objects.requireNonNull(name, "header name");
            Objects.requireNonNull(value, "value of header " + name);
            if (name.isBlank() || !name.chars().allMatch(c -> c > 32 && c < 127 && c != ':')) {
                throw new IllegalArgumentException("not a valid HTTP header name: '" + name + "'");
            }
            headers.put(name, value);
            return this;
        }

        /**
         * Adds every entry of {@code headers} as with {@link #header(String, String)}.
         *
         * @param headers header names and values
         * @return this builder
         */
        public Builder headers(Map<String, String> headers) {
            Objects.requireNonNull(headers, "headers").forEach(this::header);
            return this;
        }

        /**
         * Retries after the first attempt for retryable failures (0 disables them); default {@link #DEFAULT_MAX_RETRIES}.
         *
         * @param maxRetries 0 or more
         * @return this builder
         */
        public Builder maxRetries(int maxRetries) {
            if (maxRetries < 0) {
                throw new IllegalArgumentException("maxRetries must not be negative, was " + maxRetries);
            }
            this.maxRetries = maxRetries;
            return this;
        }

        /**
         * Azure OpenAI mode: the key goes in an {@code api-key} header instead of
         * {@code Authorization: Bearer}, and every request carries {@code ?api-version=apiVersion}.
         * The base URL is then the deployment URL
         * ({@code https://RESOURCE.openai.azure.com/openai/deployments/DEPLOYMENT}) for Chat
         * Completions, or {@code https://RESOURCE.openai.azure.com/openai} for Responses.
         *
         * @param apiVersion the Azure {@code api-version}, e.g. {@code 2024-10-21}
         * @return this builder
         */
        public Builder azure(String apiVersion) {
            Objects.requireNonNull(apiVersion, "apiVersion");
            if (apiVersion.isBlank()) {
                throw new IllegalArgumentException("Azure api-version must not be blank");
            }
            this.azureApiVersion = apiVersion.strip();
            return this;
        }

        /**
         * Whether to send the request's reasoning effort (default true); {@code false} is
         * {@code reasoningEffort(ReasoningEffort.NONE)}, {@code true} undoes a
         * {@link #reasoningEffort} setting. A model that rejects the parameter gets none anyway
         * after its first refusal.
         *
         * @param send whether the request's reasoning effort is sent
         * @return this builder
         */
        public Builder sendReasoningEffort(boolean send) {
            this.reasoningEffort = send ? Optional.empty() : Optional.of(ReasoningEffort.NONE);
            return this;
        }

        /**
         * The reasoning effort sent with every request instead of the request's own (by default
         * each request's effort is sent: Phase 1 asks for low, Phase 2 for medium).
         * {@link ReasoningEffort#NONE} sends no reasoning parameter at all, for models and servers
         * that reject it.
         *
         * @param effort the effort every request is sent with
         * @return this builder
         */
        public Builder reasoningEffort(ReasoningEffort effort) {
            this.reasoningEffort = Optional.of(Objects.requireNonNull(effort, "effort"));
            return this;
        }

        /**
         * The model's context window in tokens. Phase 1 fits a rollout into 70 % of it; unset, it
         * assumes 150,000 tokens, too many for most local models (an 8k or 32k model needs this set).
         *
         * @param tokens the context window, positive
         * @return this builder
         */
        public Builder contextWindow(int tokens) {
            if (tokens <= 0) {
                throw new IllegalArgumentException("contextWindow must be positive, was " + tokens);
            }
            this.contextWindow = OptionalInt.of(tokens);
            return this;
        }

        /**
         * How {@link OpenAiLanguageModel#tokenCounter()} counts, instead of the model's encoding or
         * the estimate: e.g. a counter with a local model's own tokenizer, or
         * {@link TokenCounter#estimate()} to keep the four-bytes rule. It must be thread-safe.
         * Replaces an earlier {@link #tokenEncoding}.
         *
         * @param counter a thread-safe counter
         * @return this builder
         */
        public Builder tokenCounter(TokenCounter counter) {
            this.tokenCounter = Objects.requireNonNull(counter, "counter");
            return this;
        }

        /**
         * Counts tokens with the OpenAI encoding named {@code encoding} ({@code o200k_base},
         * {@code cl100k_base}, {@code p50k_base}, {@code p50k_edit} or {@code r50k_base}) whatever
         * the model is called: for an Azure deployment or a proxy whose model names the client does
         * not recognise. Replaces an earlier {@link #tokenCounter}.
         *
         * @param encoding the encoding's name
         * @return this builder
         * @throws IllegalArgumentException when no encoding has that name
         */
        public Builder tokenEncoding(String encoding) {
            Objects.requireNonNull(encoding, "encoding");
            this.tokenCounter = new EncodedTokens(ModelEncodings.named(encoding));
            return this;
        }

        /** For tests: how the client waits between retries. */
        Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /** For tests: the source of jitter, numbers in [0, 1). */
        Builder jitter(DoubleSupplier jitter) {
            this.jitter = Objects.requireNonNull(jitter, "jitter");
            return this;
        }

        /** For tests: the clock an HTTP-date {@code Retry-After} is measured against. */
        Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Builds the client.
         *
         * @return the client
         * @throws IllegalStateException when no model was named, or an extra header would replace the
         *     credentials header
         */
        public OpenAiLanguageModel build() {
            if (model == null) {
                throw new IllegalStateException("no model set: call model(\"...\"), e.g. model(\"gpt-4.1-mini\")");
            }
            String authHeader = azureApiVersion == null ? "Authorization" : "api-key";
            if (!apiKey.isEmpty() && headers.keySet().stream().anyMatch(authHeader::equalsIgnoreCase)) {
                throw new IllegalStateException("extra header " + authHeader
                        + " conflicts with the API key; set one or the other");
            }
            ClientSettings settings = new ClientSettings(baseUrl, apiKey, model, api, connectTimeout, requestTimeout,
                    headers, maxRetries, Optional.ofNullable(azureApiVersion), reasoningEffort,
                    tokenCounter != null ? tokenCounter : ModelEncodings.counterFor(model));
            HttpClient http = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
            OpenAiLanguageModel client = new OpenAiLanguageModel(settings, http, new Backoff(jitter, clock), sleeper,
                    contextWindow);
            LOG.debug("Built {}", client);
            return client;
        }

        private static Duration requirePositive(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
            return value;
        }
    }
}
