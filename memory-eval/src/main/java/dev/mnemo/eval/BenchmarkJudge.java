package dev.mnemo.eval;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import java.util.Locale;

/**
 * Grades an answer with a model, following each benchmark's protocol: LongMemEval's judge asks
 * per question type (temporal questions forgive an off-by-one count, knowledge updates accept the
 * newest value even beside the old one, preference questions are judged against a rubric,
 * abstention questions pass when the answer declines), LoCoMo's J score labels an answer
 * CORRECT or WRONG and is generous about wording and date formats, and its adversarial category
 * passes when the answer does not take the bait. The prompts are Mnemo's own wording.
 */
final class BenchmarkJudge {

    static final String INSTRUCTIONS = "You grade answers for a long-term memory benchmark. Follow the grading rule"
            + " you are given exactly, then reply with one word on the first line: the verdict the rule asks for.";

    /** A verdict and what it cost. */
    record Verdict(boolean correct, String reply, TokenUsage usage) {}

    private final LanguageModel judge;

    BenchmarkJudge(LanguageModel judge) {
        this.judge = judge;
    }

    Verdict grade(Benchmark benchmark, BenchmarkSet.Question question, String answer) {
        String prompt = prompt(benchmark, question, answer);
        ModelResponse response = judge.respond(ModelRequest.builder().instructions(INSTRUCTIONS)
                .messages(java.util.List.of(ModelMessage.user(prompt))).build());
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
        String rule;
        String reference = "Reference answer: " + q.answer();
        if (q.special()) {
            rule = "This question cannot be answered from the conversations. The reference explains why. Say yes if the"
                    + " answer declines, says it does not know, or says the information was never given; say no if it"
                    + " answers as though it knew.";
            reference = "Why it cannot be answered: " + q.answer();
        } else {
            rule = switch (q.category()) {
                case "temporal-reasoning" -> "Say yes if the answer holds the reference answer, or something equivalent"
                        + " to it. Counts of days, weeks or months that are off by one still pass. Say no if the"
                        + " answer is different, or gives only part of what is asked.";
                case "knowledge-update" -> "The user's information changed over time and the reference is the newest"
                        + " value. Say yes if the answer gives that newest value, even if it also mentions an older"
                        + " one; say no if it gives only an older value or something else.";
                case "single-session-preference" -> "The reference is a rubric describing a response that fits the"
                        + " user's own preferences. Say yes if the answer recalls and uses the user's personal"
                        + " information the way the rubric asks (it need not satisfy every point); say no otherwise.";
                default -> "Say yes if the answer holds the reference answer, or something equivalent to it, or works"
                        + " through to it. Say no if the answer is different, or gives only part of what is asked.";
            };
        }
        return "Grading rule: " + rule + "\nReply yes or no.\n\nQuestion: " + q.question() + "\n" + reference
                + "\nAnswer to grade: " + answer;
    }

    /** LoCoMo: CORRECT or WRONG, generous on wording; adversarial questions pass when the bait is refused. */
    private static String locomo(BenchmarkSet.Question q, String answer) {
        if (q.special()) {
            return "Grading rule: the question presumes something the conversation never says about the person asked"
                    + " about. The misleading answer below is what someone taking the bait would say. Label the answer"
                    + " CORRECT if it says the conversation does not tell, or declines; label it WRONG if it gives the"
                    + " misleading answer or otherwise answers as though the premise held.\nReply CORRECT or WRONG.\n\n"
                    + "Question: " + q.question() + "\nMisleading answer: " + q.answer() + "\nAnswer to grade: " + answer;
        }
        return "Grading rule: be generous. Label the answer CORRECT if it refers to the same thing as the reference"
                + " answer, even when it is worded differently, longer, or gives a date in another format or relative to"
                + " the conversation (\"last Tuesday\") that lands on the same day, week or month. Label it WRONG if it"
                + " names something else, misses the point, or says it does not know.\nReply CORRECT or WRONG.\n\n"
                + "Question: " + q.question() + "\nReference answer: " + q.answer() + "\nAnswer to grade: " + answer;
    }

    /** The first word of the reply: {@code yes} (LongMemEval) or {@code CORRECT} (LoCoMo). */
    static boolean passes(Benchmark benchmark, String reply) {
        String first = reply.strip().toLowerCase(Locale.ROOT).replaceAll("^[^a-z]+", "").split("[^a-z]", 2)[0];
        return benchmark == Benchmark.LOCOMO ? first.equals("correct") : first.equals("yes");
    }
}
