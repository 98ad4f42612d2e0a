package dev.mnemo.eval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The evaluation's prompts (the answering models' instructions, the benchmark judge's rules), in
 * Mnemo's own words, kept as resources under {@code dev/mnemo/eval/prompts/}; {@code {{ name }}}
 * marks where a value goes. Each user reads its templates once, into constants.
 */
final class EvalPrompts {

    private static final String FOLDER = "prompts/";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{ ([a-z_]+) \\}\\}");

    private EvalPrompts() {}

    /** The text of {@code prompts/<name>}, without the newline that ends the file. */
    static String load(String name) {
        String path = FOLDER + name;
        try (InputStream in = EvalPrompts.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path + " next to " + EvalPrompts.class.getName());
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + path, e);
        }
    }

    /**
     * {@code template} with each placeholder replaced by its value, in one pass: text inside a value
     * (a question, an answer under test) is never read as a placeholder.
     *
     * @throws IllegalArgumentException when the template names a placeholder {@code values} lacks
     */
    static String fill(String template, Map<String, String> values) {
        Matcher placeholder = PLACEHOLDER.matcher(template);
        StringBuilder filled = new StringBuilder();
        while (placeholder.find()) {
            String value = values.get(placeholder.group(1));
            if (value == null) {
                throw new IllegalArgumentException("no value for {{ " + placeholder.group(1) + " }}");
            }
            placeholder.appendReplacement(filled, Matcher.quoteReplacement(value));
        }
        placeholder.appendTail(filled);
        return filled.toString();
    }
}
