package dev.mnemo.internal.redact;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells code from credentials on the value side of {@code token = …}, {@code apiKey: …} or a URL's
 * password: an identifier ({@code adminApiKey}, {@code this.token}), a function call
 * ({@code generateSecureToken();}) or a template or environment reference ({@code ${token}},
 * {@code {{ secrets.TOKEN }}}, {@code process.env.API_KEY}, {@code $PASSWORD}) names a secret kept
 * elsewhere; it is not one. Real secrets are random: they mix letters with digits, or are a single
 * lower-case run such as a pass phrase, which stays redacted.
 */
final class CodeValues {

    /** Code that follows a value: {@code ;}, {@code ,} and closing brackets. */
    private static final Pattern TRAILING_CODE = Pattern.compile("[;,)\\]}]+$");
    /** {@code ${…}}, {@code {{…}}}, {@code {%…}}, {@code $(…)}, {@code #{…}}, {@code %{…}}, {@code <%…}. */
    private static final Pattern TEMPLATE = Pattern.compile("^(?:\\$\\{|\\{\\{|\\{%|\\$\\(|#\\{|%\\{|<%)");
    /** A shell or batch variable: {@code $API_KEY}, {@code $token}, {@code %TOKEN%} (lower case without digits). */
    private static final Pattern VARIABLE = Pattern.compile("^(?:\\$(?:[A-Z_][A-Z0-9_]*|[a-z_]+)|%[A-Za-z_][A-Za-z0-9_]*%)$");
    private static final Pattern ENVIRONMENT = Pattern.compile(
            "^(?:process\\.env|import\\.meta\\.env|os\\.environ|os\\.getenv|System\\.getenv|ENV\\[|env\\.)");
    /** {@code name(}, {@code a.b.name(}, {@code new Name(}: a call, whatever its arguments. */
    private static final Pattern CALL = Pattern.compile("^(?:new\\s+)?[A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)*\\(");
    /** A dotted chain of names, the first without digits: {@code config.apiKey}, {@code this.token2}. */
    private static final Pattern MEMBER = Pattern.compile("^[A-Za-z_$][A-Za-z_$]*(?:\\.[A-Za-z_$][\\w$]*)+$");
    /** camelCase or PascalCase words ({@code adminApiKey}, {@code SecretValue}): no digits, no capital runs. */
    private static final Pattern CAMEL = Pattern.compile("^[A-Za-z][a-z]+(?:[A-Z][a-z]+)+$");
    /** snake_case or SCREAMING_SNAKE names of letters: {@code my_api_token}, {@code GITHUB_TOKEN}. */
    private static final Pattern SNAKE = Pattern.compile("^_?[A-Za-z]+(?:_[A-Za-z]+)+$");
    /** One run of letters, with code after it ({@code token;}). */
    private static final Pattern WORD = Pattern.compile("^[A-Za-z_$]+$");

    private CodeValues() {}

    /** Whether {@code value}, the text a secret rule would replace, is code rather than a secret. */
    static boolean isCode(String value) {
        if (isReference(value) || CALL.matcher(value).find()) {
            return true;
        }
        String name = withoutTrailingCode(value);
        boolean endsAsCode = name.length() < value.length();
        return MEMBER.matcher(name).matches() || CAMEL.matcher(name).matches() || SNAKE.matcher(name).matches()
                || (endsAsCode && WORD.matcher(name).matches());
    }

    /**
     * Whether {@code value} only refers to a secret kept elsewhere: a template placeholder, a shell
     * or batch variable, an environment lookup. Narrower than {@link #isCode}: a URL's password
     * may well be a plain word.
     */
    static boolean isReference(String value) {
        return TEMPLATE.matcher(value).find() || ENVIRONMENT.matcher(value).find()
                || VARIABLE.matcher(withoutTrailingCode(value)).matches();
    }

    private static String withoutTrailingCode(String value) {
        Matcher trailing = TRAILING_CODE.matcher(value);
        return trailing.find() ? value.substring(0, trailing.start()) : value;
    }
}
