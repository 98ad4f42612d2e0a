package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.mnemo.llm.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link OpenAiLanguageModel#tokenCounter()}: the model's own encoding, else the four-byte estimate. */
class TokenCounterTest {

    /** jtokkit itself, apart from the client's shared registry: what the counts must equal. */
    private static final EncodingRegistry JTOKKIT = Encodings.newLazyEncodingRegistry();

    /** A hex digest: 40 bytes, so 10 estimated tokens, but dozens real ones in either encoding. */
    static final String HEX = "3f9a1c7e2b4d8f60a5e1c9b7d3f2a8e4c6b0d1f9";
    static final String CODE = "for(int i=0;i<n;i++){x[i]+=y[i]*z[i];}\nif(a!=b&&c<=d){return f(g(h));}";
    static final String CJK = "記憶は長い会話でも失われない。東京で会議があります。明日の午後三時に始まります。";
    static final String PROSE = "The build uses Gradle 8.7; run ./gradlew check before pushing, never skip the tests.";
    static final List<String> TEXTS = List.of(HEX, CODE, CJK, PROSE, "", "x", "hello <|endoftext|> world");

    private static TokenCounter counterOf(String model) {
        return OpenAiLanguageModel.builder().model(model).build().tokenCounter();
    }

    private static Encoding jtokkit(EncodingType type) {
        return JTOKKIT.getEncoding(type);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "gpt-4o, O200K_BASE", "gpt-4o-mini-2024-07-18, O200K_BASE", "gpt-4.1-mini, O200K_BASE",
        "gpt-4.5-preview, O200K_BASE", "gpt-5, O200K_BASE", "gpt-5.1-codex, O200K_BASE", "o1, O200K_BASE",
        "o3-mini, O200K_BASE", "o4-mini, O200K_BASE", "chatgpt-4o-latest, O200K_BASE", "codex-mini-latest, O200K_BASE",
        "gpt-oss:20b, O200K_BASE", "GPT-4O, O200K_BASE", "openai/gpt-4.1, O200K_BASE",
        "ft:gpt-4o-mini:acme::abc123, O200K_BASE",
        "gpt-4, CL100K_BASE", "gpt-4-turbo, CL100K_BASE", "gpt-4-0613, CL100K_BASE", "gpt-3.5-turbo, CL100K_BASE"})
    void openAiModels_countExactlyAsTheirEncoding(String model, EncodingType type) {
        TokenCounter counter = counterOf(model);

        for (String text : TEXTS) {
            assertThat(counter.count(text)).as("%s counting '%s'", model, text)
                    .isEqualTo(jtokkit(type).countTokensOrdinary(text));
        }
        assertThat(counter).hasToString("TokenCounter[" + type.getName() + "]");
    }

    @Test
    void theRealCount_differsFromTheEstimate_whereTheIssueSaysItDoes() {
        TokenCounter gpt4o = counterOf("gpt-4o");
        TokenCounter gpt4 = counterOf("gpt-4");

        // A digest and dense code come to far more tokens than four bytes each: the estimate overrates the window.
        assertThat(gpt4o.count(HEX)).isEqualTo(jtokkit(EncodingType.O200K_BASE).countTokensOrdinary(HEX))
                .isGreaterThan(3 * TokenCounter.estimate().count(HEX));
        assertThat(gpt4o.count(CODE)).isGreaterThan(TokenCounter.estimate().count(CODE) * 3 / 2);
        // Japanese in the older encoding: more tokens than the estimate; the newer one packs it tighter.
        assertThat(gpt4.count(CJK)).isGreaterThan(TokenCounter.estimate().count(CJK))
                .isGreaterThan(gpt4o.count(CJK));
    }

    @ParameterizedTest
    @ValueSource(strings = {"llama3.1", "llama3.1:8b", "qwen2.5-coder:32b", "mistral-nemo", "my-azure-deployment",
        "gpt-40", "o10-model"})
    void otherModelNames_keepTheEstimate(String model) {
        assertThat(counterOf(model)).isSameAs(TokenCounter.estimate());
    }

    @Test
    void tokenEncoding_countsAnUnknownModelWithTheNamedEncoding() {
        TokenCounter counter = OpenAiLanguageModel.builder().model("my-azure-deployment").tokenEncoding("O200K_Base")
                .build().tokenCounter();

        assertThat(counter.count(CODE)).isEqualTo(jtokkit(EncodingType.O200K_BASE).countTokensOrdinary(CODE));
    }

    @Test
    void tokenCounter_replacesTheModelsEncoding() {
        TokenCounter perChar = String::length;

        assertThat(OpenAiLanguageModel.builder().model("gpt-4o").tokenCounter(perChar).build().tokenCounter())
                .isSameAs(perChar);
        assertThat(OpenAiLanguageModel.builder().model("gpt-4o").tokenCounter(TokenCounter.estimate()).build()
                .tokenCounter()).isSameAs(TokenCounter.estimate());
        assertThat(OpenAiLanguageModel.builder().model("llama3.1").tokenCounter(perChar).tokenEncoding("cl100k_base")
                .build().tokenCounter()).hasToString("TokenCounter[cl100k_base]");
    }

    @Test
    void tokenEncoding_rejectsAnUnknownNameListingTheKnownOnes() {
        assertThatThrownBy(() -> OpenAiLanguageModel.builder().tokenEncoding("o300k"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown token encoding 'o300k'; known encodings: [")
                .hasMessageContaining("o200k_base").hasMessageContaining("cl100k_base");
    }

    @Test
    void countingInParallel_givesTheSequentialCounts() throws Exception {
        TokenCounter counter = counterOf("gpt-4.1");
        List<String> texts = IntStream.range(0, 400).mapToObj(i -> TEXTS.get(i % TEXTS.size()) + " #" + i
                + " " + HEX.repeat(i % 7)).toList();
        List<Integer> sequential = texts.stream().map(counter::count).toList();

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> parallel = new ArrayList<>();
            for (String text : texts) {
                parallel.add(pool.submit(() -> counter.count(text)));
            }
            for (int i = 0; i < texts.size(); i++) {
                assertThat(parallel.get(i).get()).as("text #%d", i).isEqualTo(sequential.get(i));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void fromEnvironment_andProviderSettings_nameTheEncodingOrTheEstimate() {
        Map<String, String> env = Map.of("MNEMO_MODEL", "llama3.1", "OPENAI_BASE_URL", "http://127.0.0.1:1/v1");
        assertThat(OpenAiLanguageModel.fromEnvironment(env).tokenCounter()).isSameAs(TokenCounter.estimate());
        assertThat(OpenAiLanguageModel.fromEnvironment(with(env, "MNEMO_TOKEN_ENCODING", "cl100k_base")).tokenCounter())
                .hasToString("TokenCounter[cl100k_base]");
        Map<String, String> gpt = with(env, "MNEMO_MODEL", "gpt-4o");
        assertThat(OpenAiLanguageModel.fromEnvironment(with(gpt, "MNEMO_TOKEN_ENCODING", "estimate")).tokenCounter())
                .isSameAs(TokenCounter.estimate());
        assertThatThrownBy(() -> OpenAiLanguageModel.fromEnvironment(with(env, "MNEMO_TOKEN_ENCODING", "bytes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("MNEMO_TOKEN_ENCODING: unknown token encoding 'bytes'")
                .hasMessageEndingWith(" or 'estimate'");

        OpenAiLanguageModelProvider provider = new OpenAiLanguageModelProvider();
        assertThat(provider.create(Map.of("model", "my-deployment", "tokenEncoding", "o200k_base"), Map.of())
                .tokenCounter()).hasToString("TokenCounter[o200k_base]");
    }

    @Test
    void toString_namesHowTokensAreCounted() {
        assertThat(OpenAiLanguageModel.builder().model("gpt-4o").build().toString())
                .contains("tokenCounter=TokenCounter[o200k_base]");
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> copy = new java.util.HashMap<>(base);
        copy.put(key, value);
        return copy;
    }
}
