package dev.mnemo.llm.openai;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.LanguageModelProvider;
import java.util.Map;

/**
 * The {@code openai} {@link LanguageModelProvider}: creates an {@link OpenAiLanguageModel} from
 * settings whose keys mirror {@link OpenAiLanguageModel.Builder}:
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>key</th><th>value</th><th>default</th></tr>
 *   <tr><td>{@code model}</td><td>model name (required)</td><td>–</td></tr>
 *   <tr><td>{@code baseUrl}</td><td>API root URL</td><td>{@code https://api.openai.com/v1}</td></tr>
 *   <tr><td>{@code apiKey}</td><td>the key itself</td><td>none (no credentials sent)</td></tr>
 *   <tr><td>{@code apiKeyEnv}</td><td>name of an environment variable holding the key, so it need not be
 *       written in a settings file (not together with {@code apiKey})</td><td>–</td></tr>
 *   <tr><td>{@code api}</td><td>{@code chat} or {@code responses}</td><td>{@code chat}</td></tr>
 *   <tr><td>{@code connectTimeout}</td><td>seconds, or ISO-8601 such as {@code PT10S}</td><td>10 s</td></tr>
 *   <tr><td>{@code requestTimeout}</td><td>seconds, or ISO-8601 such as {@code PT5M}</td><td>10 min</td></tr>
 *   <tr><td>{@code maxRetries}</td><td>retries after the first attempt</td><td>2</td></tr>
 *   <tr><td>{@code azureApiVersion}</td><td>Azure OpenAI mode with this {@code api-version}</td><td>off</td></tr>
 *   <tr><td>{@code reasoningEffort}</td><td>{@code none}, {@code low}, {@code medium} or {@code high}: sent
 *       with every request instead of the request's own ({@code none}: no reasoning parameter)</td>
 *       <td>each request's own, dropped for a model whose server rejects it</td></tr>
 *   <tr><td>{@code sendReasoningEffort}</td><td>{@code true} or {@code false} ({@code false} is
 *       {@code reasoningEffort=none}; not together with it)</td><td>{@code true}</td></tr>
 *   <tr><td>{@code contextWindow}</td><td>the model's context window in tokens</td><td>unknown (150,000 assumed)</td></tr>
 *   <tr><td>{@code tokenEncoding}</td><td>{@code o200k_base}, {@code cl100k_base}, {@code p50k_base},
 *       {@code p50k_edit}, {@code r50k_base}, or {@code estimate} (four UTF-8 bytes a token)</td>
 *       <td>the model's own encoding when its name is OpenAI's, else {@code estimate}</td></tr>
 *   <tr><td>{@code header.NAME}</td><td>an extra header {@code NAME} sent with every request</td><td>–</td></tr>
 * </table>
 * An unknown key or a malformed value is an {@link IllegalArgumentException} naming it.
 */
public final class OpenAiLanguageModelProvider implements LanguageModelProvider {

    /** The name users pick this provider by. */
    public static final String NAME = "openai";

    /** Used by {@link java.util.ServiceLoader}. */
    public OpenAiLanguageModelProvider() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LanguageModel create(Map<String, String> settings) {
        return create(settings, System.getenv());
    }

    /** As {@link #create(Map)}, reading {@code apiKeyEnv} from {@code env}; for tests. */
    LanguageModel create(Map<String, String> settings, Map<String, String> env) {
        return SettingsParser.fromSettings(settings, env).build();
    }
}
