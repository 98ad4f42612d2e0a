package dev.mnemo.springai;

import dev.mnemo.llm.TokenCounter;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.tokenizer.TokenCountEstimator;

/**
 * A Spring AI {@link TokenCountEstimator} as Mnemo's {@link TokenCounter}. Spring AI's
 * {@code JTokkitTokenCountEstimator} refuses a text holding a special-token marker such as
 * {@code <|endoftext|>} (a session about tokenizers may quote one); such a text, and any other the
 * estimator fails on, is counted with {@link TokenCounter#estimate()} instead, so a budget never
 * fails on what a conversation said. The first such failure is logged.
 */
final class EstimatorTokenCounter implements TokenCounter {

    private static final Logger LOG = LoggerFactory.getLogger(EstimatorTokenCounter.class);

    private final TokenCountEstimator estimator;
    private final AtomicBoolean failureLogged = new AtomicBoolean();

    EstimatorTokenCounter(TokenCountEstimator estimator) {
        this.estimator = Objects.requireNonNull(estimator, "estimator");
    }

    @Override
    public int count(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isEmpty()) {
            return 0;
        }
        try {
            return estimator.estimate(text);
        } catch (RuntimeException e) {
            if (failureLogged.compareAndSet(false, true)) {
                LOG.warn("{} could not count a text ({}); such texts are estimated at {} UTF-8 bytes a token",
                        estimator.getClass().getSimpleName(), e.toString(), TokenCounter.BYTES_PER_TOKEN);
            }
            return TokenCounter.estimate().count(text);
        }
    }

    @Override
    public String toString() {
        return "TokenCounter[" + estimator.getClass().getSimpleName() + "]";
    }
}
