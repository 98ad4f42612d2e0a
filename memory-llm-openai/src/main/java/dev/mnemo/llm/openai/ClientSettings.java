package dev.mnemo.llm.openai;

import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The validated configuration of one {@link OpenAiLanguageModel}; built only by its builder.
 *
 * @param reasoningEffort the effort sent instead of each request's own; {@code NONE} sends none,
 *     empty sends the request's
 * @param tokenCounter how the client counts tokens: the builder's counter or encoding, else the
 *     model's encoding, else the estimate
 */
record ClientSettings(URI baseUrl, String apiKey, String model, Api api, Duration connectTimeout,
        Duration requestTimeout, Map<String, String> headers, int maxRetries, Optional<String> azureApiVersion,
        Optional<ReasoningEffort> reasoningEffort, TokenCounter tokenCounter) {

    ClientSettings {
        headers = Map.copyOf(headers);
    }

    /** The URL of the API operation at {@code path} (e.g. {@code /responses}), with Azure's api-version. */
    URI endpoint(String path) {
        String root = baseUrl.toString();
        while (root.endsWith("/")) {
            root = root.substring(0, root.length() - 1);
        }
        String query = azureApiVersion.map(v -> "?api-version=" + URLEncoder.encode(v, StandardCharsets.UTF_8))
                .orElse("");
        return URI.create(root + path + query);
    }

    /** Whether credentials go in Azure's {@code api-key} header rather than {@code Authorization: Bearer}. */
    boolean azure() {
        return azureApiVersion.isPresent();
    }
}
