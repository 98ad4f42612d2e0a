package dev.mnemo.llm.openai;

import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.mnemo.llm.TokenCounter;
import java.util.Objects;

/**
 * Counts tokens exactly as one of OpenAI's encodings splits the text. The vocabulary is loaded on
 * the first count, not when the client is built. Special-token markers such as
 * {@code <|endoftext|>} are counted as the plain text they are in a message, never rejected.
 * Thread-safe: jtokkit's encodings keep no state between calls.
 */
final class EncodedTokens implements TokenCounter {

    private final EncodingType type;
    private volatile Encoding encoding;

    EncodedTokens(EncodingType type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    @Override
    public int count(String text) {
        Objects.requireNonNull(text, "text");
        return text.isEmpty() ? 0 : encoding().countTokensOrdinary(text);
    }

    /** The encoding's name, e.g. {@code o200k_base}. */
    String encodingName() {
        return type.getName();
    }

    private Encoding encoding() {
        Encoding loaded = encoding;
        if (loaded == null) {
            // Two threads may both ask; the registry loads the vocabulary once and hands both the same encoding.
            loaded = ModelEncodings.registry().getEncoding(type);
            encoding = loaded;
        }
        return loaded;
    }

    @Override
    public String toString() {
        return "TokenCounter[" + type.getName() + "]";
    }
}
