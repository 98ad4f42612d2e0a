package dev.mnemo.console;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The parameters of a query string or a form body, checked as they are parsed: a value that looks
 * like a way out of the memory folder is refused with 400 whatever parameter carries it, so no
 * page has to remember to check. Refused: a {@code ..} path segment, a leading {@code /}, {@code ~}
 * or drive ({@code C:/}), a backslash, a control character, and percent-encoding left after decoding
 * (double-encoded traversal such as {@code %252e%252e%252f}). Names are lower-case words; each may
 * appear once.
 *
 * <p>Free-text parameters ({@link #FREE_TEXT}: the memory search) are the exception: they name no
 * file, so any text is taken ({@code /usr/bin}, {@code ..\\x}, {@code %2e}), checked for length
 * only ({@value #MAX_FREE_TEXT_CHARS} characters); pages encode them on output like any text.
 */
final class Params {

    /** The CSRF token field of every form. */
    static final String CSRF = "csrf";
    /** The access token of the start-up URL. */
    static final String TOKEN = "token";

    /** The memory search's query. */
    static final String SEARCH = "q";
    /** Parameters that hold free text, never a path: any text up to {@link #MAX_FREE_TEXT_CHARS}. */
    static final Set<String> FREE_TEXT = Set.of(SEARCH);

    static final int MAX_PARAMS = 32;
    static final int MAX_VALUE_CHARS = 8_192;
    static final int MAX_FREE_TEXT_CHARS = 1_000;

    private static final Pattern NAME = Pattern.compile("[a-z][a-z_]{0,31}");
    private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:[/\\\\].*", Pattern.DOTALL);
    private static final Pattern LEFT_ENCODED = Pattern.compile("%(2e|2f|5c|00|25)", Pattern.CASE_INSENSITIVE);

    private static final Params NONE = new Params(Map.of());

    private final Map<String, String> values;

    private Params(Map<String, String> values) {
        this.values = values;
    }

    /** No parameters. */
    static Params none() {
        return NONE;
    }

    /**
     * Parses {@code application/x-www-form-urlencoded} text (a raw query string or a form body).
     *
     * @throws HttpProblem 400 for a malformed or refused parameter
     */
    static Params parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            return NONE;
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : raw.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (!NAME.matcher(name).matches()) {
                throw HttpProblem.badRequest("unknown parameter name");
            }
            checkValue(name, value);
            if (values.put(name, value) != null) {
                throw HttpProblem.badRequest("parameter " + name + " is given twice");
            }
            if (values.size() > MAX_PARAMS) {
                throw HttpProblem.badRequest("too many parameters");
            }
        }
        return new Params(Map.copyOf(values));
    }

    /** The value of {@code name}, if given and not blank. */
    Optional<String> get(String name) {
        return Optional.ofNullable(values.get(name)).filter(v -> !v.isBlank());
    }

    /**
     * The value of {@code name}.
     *
     * @throws HttpProblem 400 when it is missing or blank
     */
    String require(String name) {
        return get(name).orElseThrow(() -> HttpProblem.badRequest("parameter " + name + " is required"));
    }

    /** Whether any parameter is given. */
    boolean isEmpty() {
        return values.isEmpty();
    }

    /** These parameters but {@code name}, as a query string (empty when none is left). */
    String queryWithout(String name) {
        StringBuilder query = new StringBuilder();
        values.forEach((key, value) -> {
            if (!key.equals(name)) {
                query.append(query.length() == 0 ? "" : "&").append(Urls.encode(key)).append('=')
                        .append(Urls.encode(value));
            }
        });
        return query.toString();
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw HttpProblem.badRequest("malformed percent-encoding");
        }
    }

    /**
     * Refuses a value that could name a place outside the memory folder, or that no form sends; a
     * free-text value only when it is too long.
     */
    static void checkValue(String name, String value) {
        if (FREE_TEXT.contains(name)) {
            if (value.length() > MAX_FREE_TEXT_CHARS) {
                throw HttpProblem.badRequest("parameter " + name + " is too long (at most " + MAX_FREE_TEXT_CHARS
                        + " characters)");
            }
            return;
        }
        if (value.length() > MAX_VALUE_CHARS) {
            throw HttpProblem.badRequest("parameter " + name + " is too long");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw HttpProblem.badRequest("parameter " + name + " holds a control character");
            }
            if (c == '\\') {
                throw HttpProblem.badRequest("parameter " + name + " holds a backslash");
            }
        }
        if (value.startsWith("/") || value.startsWith("~") || DRIVE.matcher(value).matches()) {
            throw HttpProblem.badRequest("parameter " + name + " is an absolute path");
        }
        for (String segment : value.split("/", -1)) {
            if (segment.strip().equals("..")) {
                throw HttpProblem.badRequest("parameter " + name + " leaves its folder (..)");
            }
        }
        if (LEFT_ENCODED.matcher(value).find()) {
            throw HttpProblem.badRequest("parameter " + name + " is encoded twice");
        }
        if (value.toLowerCase(Locale.ROOT).contains("%u002e")) {
            throw HttpProblem.badRequest("parameter " + name + " is encoded twice");
        }
    }
}
