package dev.mnemo.llm.openai;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.mnemo.llm.TokenCounter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of OpenAI's encodings a model name stands for, and the one registry that loads them.
 *
 * <p>Loading an encoding reads and parses its vocabulary (about half a second for
 * {@code o200k_base}), so the registry is created on first use, loads each encoding on first
 * request, and is shared by every client in the JVM. It holds nothing but the immutable vocabularies;
 * jtokkit's lazy registry is safe to use from several threads.
 */
final class ModelEncodings {

    /** OpenAI's models since GPT-4o, and the reasoning models. */
    private static final List<String> O200K_PREFIXES = List.of("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "chatgpt-4o",
            "codex-",
            // gpt-oss uses o200k_harmony: o200k_base plus chat-format tokens that plain text never encodes to.
            "gpt-oss");
    /** The o-series: the bare name or the name and a suffix ({@code o3}, {@code o4-mini}). */
    private static final List<String> O200K_NAMES = List.of("o1", "o3", "o4");

    private static final Logger LOG = LoggerFactory.getLogger(ModelEncodings.class);

    private ModelEncodings() {}

    /** The counter of {@code model}'s own encoding, or {@link TokenCounter#estimate()} for a name not known here. */
    static TokenCounter counterFor(String model) {
        Optional<EncodingType> encoding = forModel(model);
        if (encoding.isPresent()) {
            LOG.debug("Counting the tokens of model {} with {}", model, encoding.get().getName());
            return new EncodedTokens(encoding.get());
        }
        LOG.debug("Model {} has no known OpenAI encoding: its tokens are estimated at {} UTF-8 bytes each (set "
                + "tokenEncoding or tokenCounter to count them exactly)", model, TokenCounter.BYTES_PER_TOKEN);
        return TokenCounter.estimate();
    }

    /**
     * The encoding of {@code model}, or empty for a name this client does not know (a local model's).
     * Case is ignored, as are a fine-tune's {@code ft:} prefix and a router's {@code provider/} prefix
     * ({@code openai/gpt-4o}).
     */
    static Optional<EncodingType> forModel(String model) {
        String name = model.strip().toLowerCase(Locale.ROOT);
        if (name.startsWith("ft:")) {
            name = name.substring(3);
        }
        name = name.substring(name.lastIndexOf('/') + 1);
        for (String prefix : O200K_PREFIXES) {
            if (name.startsWith(prefix)) {
                return Optional.of(EncodingType.O200K_BASE);
            }
        }
        for (String series : O200K_NAMES) {
            if (name.equals(series) || name.startsWith(series + "-")) {
                return Optional.of(EncodingType.O200K_BASE);
            }
        }
        if (name.equals("gpt-4") || name.startsWith("gpt-4-") || name.startsWith("gpt-3.5")) {
            return Optional.of(EncodingType.CL100K_BASE);
        }
        return Optional.empty();
    }

    /**
     * The encoding named {@code name} ({@code o200k_base}, {@code cl100k_base}, {@code p50k_base},
     * {@code p50k_edit}, {@code r50k_base}).
     *
     * @throws IllegalArgumentException when jtokkit knows no encoding of that name
     */
    static EncodingType named(String name) {
        return EncodingType.fromName(name.strip().toLowerCase(Locale.ROOT)).orElseThrow(() ->
                new IllegalArgumentException("unknown token encoding '" + name + "'; known encodings: "
                        + Arrays.stream(EncodingType.values()).map(EncodingType::getName).toList()));
    }

    /** The shared registry, created on first use. */
    static EncodingRegistry registry() {
        return Registry.INSTANCE;
    }

    /** Initialization-on-demand: the JVM creates the registry once, on the first call to {@link #registry()}. */
    private static final class Registry {
        static final EncodingRegistry INSTANCE = Encodings.newLazyEncodingRegistry();
    }
}
