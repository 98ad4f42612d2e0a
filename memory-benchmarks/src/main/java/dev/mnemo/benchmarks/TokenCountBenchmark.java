package dev.mnemo.benchmarks;

import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.openai.OpenAiLanguageModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Exact token counting ({@code gpt-4o}'s {@code o200k_base} through the OpenAI client's counter) over
 * the text of the five real fixture rollouts, against {@link TokenCounter#estimate()} (four bytes a
 * token) on the same text. The encoding is loaded in the setup, so only counting is timed. The
 * summary also gives the two counts of those texts ({@code token_count_tokens}): how far the
 * estimate is off on real sessions.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class TokenCountBenchmark {

    /** The model whose encoding is measured: {@code o200k_base}, that of OpenAI's current models. */
    static final String MODEL = "gpt-4o";

    private List<String> texts;
    private TokenCounter exact;

    @Setup(Level.Trial)
    public void setUp() {
        texts = fixtureTexts();
        exact = OpenAiLanguageModel.builder().model(MODEL).build().tokenCounter();
        exact.count("load the vocabulary before timing");
    }

    /** The fixture rollouts' UTF-8 bytes: the MB of the MB/s. */
    static long totalBytes() {
        long total = 0;
        for (String text : fixtureTexts()) {
            total += text.getBytes(StandardCharsets.UTF_8).length;
        }
        return total;
    }

    /** The fixture rollouts' tokens counted exactly and estimated, for the summary's {@code token_count_tokens}. */
    static Totals totals() {
        TokenCounter exact = OpenAiLanguageModel.builder().model(MODEL).build().tokenCounter();
        long counted = 0;
        long estimated = 0;
        for (String text : fixtureTexts()) {
            counted += exact.count(text);
            estimated += TokenCounter.estimate().count(text);
        }
        return new Totals(counted, estimated);
    }

    /** Tokens of the same text, counted with the model's encoding and with the four-byte estimate. */
    record Totals(long exact, long estimated) {}

    private static List<String> fixtureTexts() {
        List<String> out = new ArrayList<>();
        for (Path rollout : BenchSupport.fullFixtureRollouts()) {
            try {
                out.add(Files.readString(rollout, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + rollout, e);
            }
        }
        return out;
    }

    @Benchmark
    public void count(Blackhole bh) {
        for (String text : texts) {
            bh.consume(exact.count(text));
        }
    }

    @Benchmark
    public void countReference(Blackhole bh) {
        for (String text : texts) {
            bh.consume(TokenCounter.estimate().count(text));
        }
    }
}
