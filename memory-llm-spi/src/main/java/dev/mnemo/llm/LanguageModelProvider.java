package dev.mnemo.llm;

import java.util.Map;

/**
 * Creates a {@link LanguageModel} by name, for tools that let users pick a model client by
 * configuration. Implementations are registered for {@link java.util.ServiceLoader}.
 */
public interface LanguageModelProvider {

    /**
     * A short name users type to pick this provider, e.g. {@code openai}.
     *
     * @return the provider's name
     */
    String name();

    /**
     * Creates a model from string settings (keys are the provider's own, documented in its Javadoc).
     *
     * @param settings the provider's settings, by key
     * @return the model
     * @throws IllegalArgumentException when a setting is missing or malformed
     */
    LanguageModel create(Map<String, String> settings);
}
