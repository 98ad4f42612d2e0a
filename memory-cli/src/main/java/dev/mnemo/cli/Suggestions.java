package dev.mnemo.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;

/**
 * "Did you mean" for a mistyped command or option, only when a candidate is close: one or two
 * edits away (by length), or the typed word is the start of exactly that name; never for words of
 * one or two letters. Picocli's own suggestions rank every candidate and always propose something,
 * even for unrelated words.
 */
final class Suggestions {

    private Suggestions() {}

    /** The close candidates for the first unmatched word, best first; empty when none is close. */
    static List<String> close(CommandLine.UnmatchedArgumentException e) {
        if (e.getUnmatched().isEmpty()) {
            return List.of();
        }
        String typed = e.getUnmatched().get(0);
        CommandLine.Model.CommandSpec spec = e.getCommandLine().getCommandSpec();
        List<String> candidates = new ArrayList<>();
        if (typed.startsWith("-")) {
            typed = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
            spec.options().stream().filter(o -> !o.hidden()).forEach(o -> candidates.addAll(List.of(o.names())));
        } else {
            spec.subcommands().forEach((name, sub) -> {
                if (!sub.getCommandSpec().usageMessage().hidden()) {
                    candidates.add(name);
                }
            });
        }
        return close(typed, candidates);
    }

    /** The candidates close to {@code typed}, nearest first. */
    static List<String> close(String typed, List<String> candidates) {
        String word = typed.toLowerCase(Locale.ROOT);
        if (word.replaceFirst("^-+", "").length() < 3) {
            return List.of();
        }
        int allowed = Math.min(2, Math.max(1, word.replaceFirst("^-+", "").length() / 4));
        List<String> close = new ArrayList<>();
        for (int distance = 0; distance <= allowed; distance++) {
            for (String candidate : candidates) {
                if (!close.contains(candidate) && distance(word, candidate.toLowerCase(Locale.ROOT)) == distance) {
                    close.add(candidate);
                }
            }
        }
        if (close.isEmpty()) {
            List<String> prefixed = candidates.stream().filter(c -> c.toLowerCase(Locale.ROOT).startsWith(word)).toList();
            if (prefixed.size() == 1) {
                close.addAll(prefixed);
            }
        }
        return List.copyOf(close);
    }

    /** Edit distance with adjacent transpositions (optimal string alignment). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
