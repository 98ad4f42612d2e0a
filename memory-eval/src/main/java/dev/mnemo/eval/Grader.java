package dev.mnemo.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Deterministic grading: a fact is in a text when its words appear in order, ignoring letter case,
 * runs of white space and Markdown backticks, and not as part of a longer word. No model judges.
 */
final class Grader {

    private Grader() {}

    static ProbeResult grade(String userId, Script.Probe probe, Condition condition, String answer) {
        List<String> missing = new ArrayList<>();
        for (String fact : probe.expected()) {
            if (!contains(answer, fact)) {
                missing.add(fact);
            }
        }
        boolean recalled = !probe.expected().isEmpty() && missing.isEmpty();
        boolean stale = probe.stale().stream().anyMatch(fact -> contains(answer, fact));
        boolean leaked = probe.forbidden().stream().anyMatch(fact -> contains(answer, fact));
        return new ProbeResult(userId, probe.id(), probe.category(), condition, answer, recalled, stale, leaked, missing);
    }

    /**
     * Grades an answer to a cross-project probe: recalled when it holds the project's own value,
     * contaminated when it holds another project's value of what was asked (both may be true).
     */
    static ProjectProbeResult grade(String scenarioId, Script.ProjectProbe probe, ReadPath readPath, String answer) {
        List<String> foreign = probe.foreign().stream().filter(fact -> contains(answer, fact)).toList();
        return new ProjectProbeResult(scenarioId, probe.id(), probe.project().name(), readPath, answer,
                contains(answer, probe.expected()), !probe.foreign().isEmpty(), !foreign.isEmpty(), foreign);
    }

    /** Whether {@code fact} occurs in {@code text} as whole words (see the class comment). */
    static boolean contains(String text, String fact) {
        return pattern(fact).matcher(normalise(text)).find();
    }

    private static Pattern pattern(String fact) {
        String f = normalise(fact);
        String start = Character.isLetterOrDigit(f.charAt(0)) ? "(?<![\\p{L}\\p{N}])" : "";
        String end = Character.isLetterOrDigit(f.charAt(f.length() - 1)) ? "(?![\\p{L}\\p{N}])" : "";
        return Pattern.compile(start + Pattern.quote(f) + end);
    }

    private static String normalise(String text) {
        return text.replace("`", "").replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
    }
}
