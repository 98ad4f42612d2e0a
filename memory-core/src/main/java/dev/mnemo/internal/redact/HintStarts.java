package dev.mnemo.internal.redact;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Where the matches of a rule may begin in a text: at or up to {@code lookback} chars before an
 * occurrence of one of its hints; for a case-insensitive rule, where any of the redactor's
 * lower-case hints begins in any ASCII case (Java's {@code (?i)} folds ASCII only, so a match can
 * begin nowhere else, and trying a pattern where another rule's hint begins only costs a failed
 * try), found in a lower-cased copy of the text when lower-casing kept every char's index. One instance serves one redaction and keeps its answers while the text stays the same, so
 * rules with equal hints, and all the case-insensitive rules, search it once.
 */
final class HintStarts {

    private final LowerCaseHints lowerCaseHints;

    private String text;
    /** Answers for the current text: the hint list (compared by identity) and lookback each answers for. */
    private final List<List<String>> answeredHints = new ArrayList<>();
    private final List<Integer> answeredLookbacks = new ArrayList<>();
    private final List<int[]> answers = new ArrayList<>();

    /** @param lowerCaseHints every case-insensitive rule's hints */
    HintStarts(LowerCaseHints lowerCaseHints) {
        this.lowerCaseHints = lowerCaseHints;
    }

    /** Lower-case ASCII hints, looked up by their first char in either case; built once per redactor. */
    static final class LowerCaseHints {
        private final List<String> all;
        private final List<List<String>> byFirst = new ArrayList<>(Collections.nCopies(128, null));
        private final int shortest;

        /** @param hints lower-case ASCII, none empty */
        LowerCaseHints(Collection<String> hints) {
            all = List.copyOf(hints);
            int min = Integer.MAX_VALUE;
            for (String hint : hints) {
                char first = hint.charAt(0);
                for (char c : new char[] {first, Character.toUpperCase(first)}) {
                    if (byFirst.get(c) == null) {
                        byFirst.set(c, new ArrayList<>());
                    }
                    byFirst.get(c).add(hint);
                }
                min = Math.min(min, hint.length());
            }
            shortest = min;
        }
    }

    /**
     * The candidate starts in {@code text}, ascending and distinct, for case-sensitive {@code hints};
     * rules that share a hint list instance share the answer.
     */
    int[] of(String text, List<String> hints, int lookback) {
        int[] known = known(text, hints, lookback);
        return known != null ? known : remember(hints, lookback, find(text, hints, lookback));
    }

    /** The candidate starts in {@code text}, ascending and distinct, of any lower-case hint in any ASCII case. */
    int[] ignoringCase(String text) {
        int[] known = known(text, lowerCaseHints.all, -1);
        return known != null ? known : remember(lowerCaseHints.all, -1, findIgnoringCase(text));
    }

    private int[] known(String text, List<String> hints, int lookback) {
        if (text != this.text) {
            this.text = text;
            answeredHints.clear();
            answeredLookbacks.clear();
            answers.clear();
            return null;
        }
        for (int i = 0; i < answers.size(); i++) {
            if (answeredHints.get(i) == hints && answeredLookbacks.get(i) == lookback) {
                return answers.get(i);
            }
        }
        return null;
    }

    private int[] remember(List<String> hints, int lookback, int[] starts) {
        answeredHints.add(hints);
        answeredLookbacks.add(lookback);
        answers.add(starts);
        return starts;
    }

    private static int[] find(String text, List<String> hints, int lookback) {
        Starts found = new Starts();
        for (String hint : hints) {
            for (int at = text.indexOf(hint); at >= 0; at = text.indexOf(hint, at + 1)) {
                for (int start = Math.max(0, at - lookback); start <= at; start++) {
                    found.add(start);
                }
            }
        }
        return found.sortedDistinct(hints.size() > 1 || lookback > 0);
    }

    private int[] findIgnoringCase(String text) {
        String folded = text.toLowerCase(Locale.ROOT);
        if (folded.length() == text.length()) { // every char kept its index: search the lower-cased copy
            return find(folded, lowerCaseHints.all, 0);
        }
        // A char grew when lower-cased (U+0130 becomes two): compare char by char instead.
        Starts found = new Starts();
        int last = text.length() - lowerCaseHints.shortest;
        for (int i = 0; i <= last; i++) {
            char c = text.charAt(i);
            List<String> hints = c < 128 ? lowerCaseHints.byFirst.get(c) : null;
            if (hints != null && startsWithAnyIgnoringCase(text, i, hints)) {
                found.add(i);
            }
        }
        return found.sortedDistinct(false);
    }

    private static boolean startsWithAnyIgnoringCase(String text, int at, List<String> hints) {
        for (String hint : hints) {
            if (startsWithIgnoringCase(text, at, hint)) {
                return true;
            }
        }
        return false;
    }

    private static boolean startsWithIgnoringCase(String text, int at, String lowerCaseHint) {
        if (at + lowerCaseHint.length() > text.length()) {
            return false;
        }
        for (int j = 1; j < lowerCaseHint.length(); j++) {
            char c = text.charAt(at + j);
            if ((c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c) != lowerCaseHint.charAt(j)) {
                return false;
            }
        }
        return true;
    }

    /** A growing list of ints. */
    private static final class Starts {
        private int[] values = new int[8];
        private int size;

        void add(int value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        /** The values ascending without repeats; {@code unordered} says whether they may be out of order. */
        int[] sortedDistinct(boolean unordered) {
            int[] result = Arrays.copyOf(values, size);
            if (!unordered) {
                return result;
            }
            Arrays.sort(result);
            int distinct = 0;
            for (int i = 0; i < result.length; i++) {
                if (distinct == 0 || result[i] != result[distinct - 1]) {
                    result[distinct++] = result[i];
                }
            }
            return Arrays.copyOf(result, distinct);
        }
    }
}
