package dev.mnemo.internal.redact;

import dev.mnemo.spi.SecretRedactor;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mnemo's built-in {@link SecretRedactor}: Codex's four patterns (write sheet §4.6) plus the common
 * provider formats of SPEC "Phase 1 / Redaction". Where natural the surrounding shape stays
 * readable ({@code Bearer …}, {@code api_key=…}, PEM armour lines, a URL's scheme, user and host).
 *
 * <p>Patterns are compiled once; the instance is immutable and thread-safe. It never throws: if a
 * pattern fails on some pathological input, the whole text is replaced (failing closed).
 */
public final class DefaultSecretRedactor implements SecretRedactor {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultSecretRedactor.class);

    /** The replacement text, shared with Codex. */
    public static final String REDACTED = "[REDACTED_SECRET]";

    /**
     * A pattern and its replacement (with {@code $n} group references). When {@code hint} is not
     * empty, text that contains none of its {@code |}-separated parts cannot match and is not scanned.
     * When {@code startsAtHint}, every match begins at most {@code lookback} chars before one of its
     * hints (or, for {@code lowerCaseHints}, where one begins in any ASCII case), so the pattern is
     * tried only there (see {@link #applyAtHints}). When {@code valueGroup} is not 0, a match whose
     * group of that number {@code spared} accepts (code or a reference rather than a secret; see
     * {@link CodeValues}) is left alone.
     */
    private record Rule(String name, List<String> hints, List<String> lowerCaseHints, Pattern pattern,
            String replacement, boolean startsAtHint, int lookback, int valueGroup, Predicate<String> spared) {
        static Rule of(String name, String hint, String regex, String replacement) {
            return new Rule(name, hints(hint), List.of(), Pattern.compile(regex), replacement, false, 0, 0, v -> false);
        }

        /** A rule whose every match begins where one of its {@code |}-separated hints begins. */
        static Rule startingAt(String name, String hint, String regex, String replacement) {
            return startingBefore(name, hint, 0, regex, replacement);
        }

        /**
         * A rule whose every match begins at most {@code lookback} chars before one of its
         * {@code |}-separated hints begins (a URL's scheme before its {@code ://}).
         */
        static Rule startingBefore(String name, String hint, int lookback, String regex, String replacement) {
            return new Rule(name, hints(hint), List.of(), Pattern.compile(regex), replacement, true, lookback, 0,
                    v -> false);
        }

        /**
         * The {@code |}-separated hints as a list, the same instance for the same text, so that
         * {@link HintStarts} answers rules with equal hints (the two {@code sk-} rules, the two PEM
         * rules) from one search.
         */
        private static List<String> hints(String hint) {
            return Rules.HINT_LISTS.computeIfAbsent(hint, h -> h.isEmpty() ? List.of() : List.of(h.split("\\|")));
        }

        /**
         * A case-insensitive rule ({@code (?i)}, which folds ASCII only) whose every match begins where
         * one of {@code lowerCaseHints} begins, in any ASCII case.
         */
        static Rule anyOf(String name, List<String> lowerCaseHints, String regex, String replacement) {
            return new Rule(name, List.of(), lowerCaseHints, Pattern.compile(regex), replacement, true, 0, 0,
                    v -> false);
        }

        /** This rule, leaving matches alone whose group {@code group} is code rather than a secret. */
        Rule unlessCode(int group) {
            return new Rule(name, hints, lowerCaseHints, pattern, replacement, startsAtHint, lookback, group,
                    CodeValues::isCode);
        }

        /** This rule, leaving matches alone whose group {@code group} refers to a secret kept elsewhere. */
        Rule unlessReference(int group) {
            return new Rule(name, hints, lowerCaseHints, pattern, replacement, startsAtHint, lookback, group,
                    CodeValues::isReference);
        }

        /** Whether the current match of {@code matcher} stays as it is. */
        boolean spares(Matcher matcher) {
            if (valueGroup == 0) {
                return false;
            }
            String value = matcher.group(valueGroup);
            return value != null && spared.test(value);
        }
    }

    /**
     * The rules, compiled when a text is first redacted rather than when a redactor is made: every
     * engine makes one on open, and most opens (instructions, {@code mnemo status}) never redact.
     */
    private static final class Rules {

        /** Hint lists by their text while the rules are built (see {@code Rule.hints}). */
        static final Map<String, List<String>> HINT_LISTS = new HashMap<>();

        static final List<String> SECRET_WORDS = List.of("apikey", "api_key", "api-key", "token", "secret",
                "passw");

        /**
         * Provider formats first (so a specific key is caught whole), then Codex's four in Codex's
         * order. Each rule's replacement is left alone by the rules after it.
         */
        static final List<Rule> RULES = List.of(
                Rule.of("pem-private-key", "PRIVATE KEY-----",
                        "-----BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY-----[\\s\\S]{0,65536}?-----END \\1PRIVATE KEY-----",
                        "-----BEGIN $1PRIVATE KEY-----\n" + REDACTED + "\n-----END $1PRIVATE KEY-----"),
                // A key block cut short (a truncated tool output): its base64 lines up to the cut.
                Rule.of("pem-private-key-unterminated", "PRIVATE KEY-----",
                        "-----BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY-----(?:(?:\\s|\\\\n)*+[A-Za-z0-9+/=]{16,}+)++",
                        "-----BEGIN $1PRIVATE KEY-----\n" + REDACTED),
                // The scheme, 1 to 31 chars, ends where "://" begins.
                Rule.startingBefore("url-credentials", "://", 31,
                        "\\b([A-Za-z][A-Za-z0-9+.\\-]{0,30}://)([^\\s:/@\"'<>\\[\\]]{1,256}):([^\\s/\"'<>]{1,256})@"
                                + "(?=[A-Za-z0-9\\[])",
                        "$1$2:" + REDACTED + "@").unlessReference(3),
                Rule.startingAt("jwt", "eyJ", "\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}", REDACTED),
                Rule.startingAt("anthropic", "sk-ant-", "\\bsk-ant-[A-Za-z0-9_\\-]{16,}", REDACTED),
                Rule.startingAt("github", "ghp_|gho_|ghu_|ghs_|ghr_|github_pat_", "\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})\\b", REDACTED),
                Rule.startingAt("slack", "xox", "\\bxox[abposr]-[A-Za-z0-9-]{10,}", REDACTED),
                Rule.startingAt("google", "AIza", "\\bAIza[0-9A-Za-z_\\-]{35}", REDACTED),
                Rule.of("stripe", "_live_", "\\b(?:sk|rk)_live_[0-9A-Za-z]{16,}", REDACTED),
                // OpenAI's scoped keys carry dashes and underscores that Codex's sk- pattern stops at.
                Rule.startingAt("openai-scoped", "sk-", "\\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_\\-]{20,}", REDACTED),
                // A secret-named key inside a longer name (aws_secret_access_key, DB_PASSWORD, _authToken) or
                // a quoted JSON field name, whose value looks random (letters and digits, no code punctuation).
                // The match starts at the keyword: whatever precedes it in the name stays as it is. The value
                // may end at an escape sequence or a closing backtick (a command quoted in a JSON string).
                Rule.anyOf("named-secret", SECRET_WORDS,
                        "(?i)((?:api[_-]?key|token|secret|password|passwd)(?:[_-][A-Za-z0-9]+)*)\\b"
                                + "(\"?\\s*[:=]\\s*)([\"']?)(?=[A-Za-z0-9_\\-+/=.]*[0-9])(?=[A-Za-z0-9_\\-+/=.]*[A-Za-z])"
                                + "([A-Za-z0-9_\\-+/=.]{8,})(?![^\\s\"'`\\\\,;})\\]])",
                        "$1$2$3" + REDACTED).unlessCode(4),
                // Codex's four, in Codex's order (codex_secrets::redact_secrets). Mnemo: the assignment's
                // value ends before a backslash or backtick (an escape sequence or closing quote of the
                // text around it stays), and code (adminApiKey, generateSecureToken(), ${token}) is spared.
                Rule.startingAt("openai", "sk-", "sk-[A-Za-z0-9]{20,}", REDACTED),
                Rule.startingAt("aws-access-key", "AKIA", "\\bAKIA[0-9A-Z]{16}\\b", REDACTED),
                Rule.anyOf("bearer", List.of("bearer"), "(?i)\\bBearer\\s+[A-Za-z0-9._\\-]{16,}\\b", "Bearer " + REDACTED),
                Rule.anyOf("assignment", SECRET_WORDS,
                        "(?i)\\b(api[_-]?key|token|secret|password)\\b(\\s*[:=]\\s*)([\"']?)([^\\s\"'`\\\\]{8,})",
                        "$1$2$3" + REDACTED).unlessCode(4));

        /** The case-insensitive rules' hints, together: one search finds where any of those rules may match. */
        static final HintStarts.LowerCaseHints LOWER_CASE_HINTS = new HintStarts.LowerCaseHints(
                RULES.stream().flatMap(rule -> rule.lowerCaseHints().stream()).collect(Collectors.toSet()));
    }

    @Override
    public String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text == null ? "" : text;
        }
        String result = text;
        HintStarts starts = new HintStarts(Rules.LOWER_CASE_HINTS);
        try {
            for (Rule rule : Rules.RULES) {
                result = apply(rule, result, starts);
            }
            return result;
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("Secret redaction failed on a text of {} chars ({}); replacing the whole text",
                    text.length(), e.toString());
            return REDACTED;
        }
    }

    /**
     * The same redaction done the slow, obvious way: every rule's pattern with
     * {@link Matcher#replaceAll}, no hints, in order. For tests: {@link #redact} must equal it.
     */
    static String redactByFullScan(String text) {
        String result = text;
        for (Rule rule : Rules.RULES) {
            result = scan(rule, result, null);
        }
        return result;
    }

    /** How many times each rule matches {@code text}, rules applied in order (for tests and tuning). */
    Map<String, Integer> matchCounts(String text) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        String current = text;
        for (Rule rule : Rules.RULES) {
            int[] count = {0};
            scan(rule, current, matcher -> count[0]++);
            if (count[0] > 0) {
                counts.put(rule.name(), count[0]);
            }
            current = apply(rule, current, new HintStarts(Rules.LOWER_CASE_HINTS));
        }
        return counts;
    }

    private static String apply(Rule rule, String text, HintStarts starts) {
        if (rule.startsAtHint()) {
            return applyAtHints(rule, text, rule.lowerCaseHints().isEmpty()
                    ? starts.of(text, rule.hints(), rule.lookback())
                    : starts.ignoringCase(text));
        }
        boolean mayMatch = rule.hints().isEmpty() || starts.of(text, rule.hints(), 0).length > 0;
        return mayMatch ? scan(rule, text, null) : text;
    }

    /**
     * Every match of {@code rule} from left to right, as {@link Matcher#replaceAll} finds them, except
     * that a match the rule spares is skipped and the search goes on from its next character. Returns
     * the text with the matches replaced, or calls {@code counter} for each instead when it is not null.
     */
    private static String scan(Rule rule, String text, Consumer<Matcher> counter) {
        Matcher matcher = rule.pattern().matcher(text);
        StringBuilder out = null;
        int copied = 0;
        int from = 0;
        while (from <= text.length() && matcher.find(from)) {
            if (rule.spares(matcher)) {
                from = matcher.start() + 1;
                continue;
            }
            if (counter != null) {
                counter.accept(matcher);
            } else {
                out = out == null ? new StringBuilder(text.length()) : out;
                out.append(text, copied, matcher.start());
                expand(rule.replacement(), matcher, out);
                copied = matcher.end();
            }
            from = Math.max(matcher.end(), matcher.start() + 1);
        }
        return out == null ? text : out.append(text, copied, text.length()).toString();
    }

    /**
     * {@link #apply} for a rule whose matches can only start at one of {@code starts} (ascending,
     * distinct): the pattern is tried there alone ({@code lookingAt}, transparent bounds so {@code \b}
     * still sees the text before), not at every position of the text. Same result as {@code find()}
     * from left to right.
     */
    private static String applyAtHints(Rule rule, String text, int[] starts) {
        if (starts.length == 0) {
            return text;
        }
        Matcher matcher = rule.pattern().matcher(text);
        StringBuilder out = null;
        int copied = 0;
        for (int start : starts) {
            if (start < copied) {
                continue;
            }
            matcher.region(start, text.length()).useTransparentBounds(true).useAnchoringBounds(false);
            if (!matcher.lookingAt() || rule.spares(matcher)) {
                continue;
            }
            out = out == null ? new StringBuilder(text.length()) : out;
            out.append(text, copied, matcher.start());
            expand(rule.replacement(), matcher, out);
            copied = Math.max(matcher.end(), matcher.start() + 1);
            if (matcher.end() == matcher.start()) {
                out.append(text, matcher.start(), copied);
            }
        }
        if (out == null) {
            return text;
        }
        return out.append(text, Math.min(copied, text.length()), text.length()).toString();
    }

    /** Appends {@code replacement} with its {@code $n} group references filled in. */
    private static void expand(String replacement, Matcher matcher, StringBuilder out) {
        for (int i = 0; i < replacement.length(); i++) {
            char c = replacement.charAt(i);
            if (c == '$' && i + 1 < replacement.length() && Character.isDigit(replacement.charAt(i + 1))) {
                String group = matcher.group(replacement.charAt(++i) - '0');
                out.append(group == null ? "" : group);
            } else {
                out.append(c);
            }
        }
    }
}
