package dev.mnemo.eval;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Grades an answer with a model, following each benchmark's protocol: LongMemEval's judge asks
 * per question type (temporal questions forgive an off-by-one count, knowledge updates accept the
 * newest value even beside the old one, preference questions are judged against a rubric,
 * abstention questions pass when the answer declines), LoCoMo's J score labels an answer
 * CORRECT or WRONG and is generous about wording and date formats, and its adversarial category
 * passes when the answer does not take the bait. The prompts are Mnemo's own wording, in
 * {@code prompts/judge_*.md}.
 */
final class BenchmarkJudge {

    static final String INSTRUCTIONS = EvalPrompts.load("judge_system.md");
    private static final String LONGMEMEVAL = EvalPrompts.load("judge_longmemeval.md");
    /** LongMemEval's question types with a grading rule of their own. */
    private static final Map<String, String> LONGMEMEVAL_RULES = Map.of(
            "temporal-reasoning", EvalPrompts.load("judge_longmemeval_rule_temporal-reasoning.md"),
            "knowledge-update", EvalPrompts.load("judge_longmemeval_rule_knowledge-update.md"),
            "single-session-preference", EvalPrompts.load("judge_longmemeval_rule_single-session-preference.md"));
    private static final String LONGMEMEVAL_OTHER = EvalPrompts.load("judge_longmemeval_rule_other.md");
    private static final String LONGMEMEVAL_ABSTENTION = EvalPrompts.load("judge_longmemeval_rule_abstention.md");
    private static final String LOCOMO = EvalPrompts.load("judge_locomo.md");
    private static final String LOCOMO_ADVERSARIAL = EvalPrompts.load("judge_locomo_adversarial.md");

    /** A verdict and what it cost. */
    record Verdict(boolean correct, String reply, TokenUsage usage) {}

    private final LanguageModel judge;

    BenchmarkJudge(LanguageModel judge) {
        this.judge = judge;
    }

    Verdict grade(Benchmark benchmark, BenchmarkSet.Question question, String answer) {
        String prompt = prompt(benchmark, question, answer);
        ModelResponse response = judge.respond(ModelRequest.builder().instructions(INSTRUCTIONS)
                .messages(List.of(ModelMessage.user(prompt))).build());
        return new Verdict(passes(benchmark, response.text()), response.text(), response.usage());
    }

    static String prompt(Benchmark benchmark, BenchmarkSet.Question question, String answer) {
        return switch (benchmark) {
            case LONGMEMEVAL -> longMemEval(question, answer);
            case LOCOMO -> locomo(question, answer);
        };
    }

    /** LongMemEval: yes or no, with a rule per question type. */
    private static String longMemEval(BenchmarkSet.Question q, String answer) {
        String rule = q.special() ? LONGMEMEVAL_ABSTENTION
                : LONGMEMEVAL_RULES.getOrDefault(q.category(), LONGMEMEVAL_OTHER);
        String referenceLabel = q.special() ? "Why it cannot be answered" : "Reference answer";
        return EvalPrompts.fill(LONGMEMEVAL, Map.of("rule", rule, "question", q.question(),
                "reference_label", referenceLabel, "reference", q.answer(), "answer", answer));
    }

    /** LoCoMo: CORRECT or WRONG, generous on wording; adversarial questions pass when the bait is refused. */
    private static String locomo(BenchmarkSet.Question q, String answer) {
        return EvalPrompts.fill(q.special() ? LOCOMO_ADVERSARIAL : LOCOMO, Map.of("question", q.question(),
                "reference", q.answer(), "answer", answer));
    }

    /** The first word of the reply: {@code yes} (LongMemEval) or {@code CORRECT} (LoCoMo). */
    static boolean passes(Benchmark benchmark, String reply) {
        String first = reply.strip().toLowerCase(Locale.ROOT).replaceAll("^[^a-z]+", "").split("[^a-z]", 2)[0];
        return benchmark == Benchmark.LOCOMO ? first.equals("correct") : first.equals("yes");
    }
}
