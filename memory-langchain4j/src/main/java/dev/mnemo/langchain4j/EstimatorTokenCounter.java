package dev.mnemo.langchain4j;

import dev.langchain4j.model.TokenCountEstimator;
import dev.mnemo.llm.TokenCounter;
import java.util.Objects;

/**
 * A LangChain4j {@link TokenCountEstimator} as Mnemo's {@link TokenCounter}: a text's tokens are
 * its {@code estimateTokenCountInText}. Thread-safe when the estimator is (LangChain4j's
 * {@code OpenAiTokenCountEstimator} is).
 */
record EstimatorTokenCounter(TokenCountEstimator estimator) implements TokenCounter {

    EstimatorTokenCounter {
        Objects.requireNonNull(estimator, "estimator");
    }

    @Override
    public int count(String text) {
        Objects.requireNonNull(text, "text");
        return text.isEmpty() ? 0 : estimator.estimateTokenCountInText(text);
    }

    @Override
    public String toString() {
        return "TokenCounter[" + estimator.getClass().getSimpleName() + "]";
    }
}
