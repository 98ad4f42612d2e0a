package dev.mnemo.internal.read;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Mnemo's template of the memory section ({@code developer_instructions.md}, a resource beside this
 * class), split once at its {@code {{ name }}} placeholders and filled by {@link DeveloperInstructions}
 * for each new rendering; the pieces that differ by audience or scope are {@link InstructionPart}s,
 * split the same way. Loaded when first filled: an engine that never renders never reads it.
 */
final class InstructionsTemplate {

    private static final String RESOURCE = "developer_instructions.md";
    /** Every placeholder the template must use, and the only ones it may. */
    private static final Set<String> PLACEHOLDERS = Set.of("path_prefix", "raw_layout", "scope_layout", "search_how",
            "open_how", "raw_how", "note_how", "memory_summary");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([a-z_]+)\\s*}}");
    private static final List<Segment> SEGMENTS = parse(load(RESOURCE).strip());

    private InstructionsTemplate() {}

    /**
     * The template with each placeholder replaced by its value.
     *
     * @param values a value for every placeholder
     * @param sizeHint the length of the longest value (the summary), to size the text once
     */
    static String fill(Map<String, String> values, int sizeHint) {
        return append(new StringBuilder(sizeHint + 8192), SEGMENTS, values).toString();
    }

    /** A piece of a template: literal text, or the name of a value inserted at render time. */
    record Segment(String text, boolean placeholder) {}

    /** The text of the resource {@code name} beside this class. */
    static String load(String name) {
        try (InputStream in = InstructionsTemplate.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource dev/mnemo/internal/read/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + name, e);
        }
    }

    /** {@link #parse(String, Set, String)} of the memory section's template. */
    static List<Segment> parse(String template) {
        return parse(template, PLACEHOLDERS, RESOURCE);
    }

    /**
     * Splits a template at its {@code {{ name }}} placeholders once, so inserted values (which may
     * themselves contain braces) are never scanned again. Every placeholder must be one of
     * {@code expected} and every one of {@code expected} must appear.
     *
     * @param source what the template is, for the error
     */
    static List<Segment> parse(String template, Set<String> expected, String source) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        List<Segment> segments = new ArrayList<>();
        Set<String> seen = new TreeSet<>();
        int last = 0;
        while (matcher.find()) {
            String name = matcher.group(1);
            if (!expected.contains(name)) {
                throw new IllegalStateException("unknown placeholder {{ " + name + " }} in " + source);
            }
            segments.add(new Segment(template.substring(last, matcher.start()), false));
            segments.add(new Segment(name, true));
            seen.add(name);
            last = matcher.end();
        }
        segments.add(new Segment(template.substring(last), false));
        if (!seen.equals(new TreeSet<>(expected))) {
            throw new IllegalStateException(source + " uses placeholders " + seen + ", expected "
                    + new TreeSet<>(expected));
        }
        return List.copyOf(segments);
    }

    /** Appends {@code segments} to {@code out}, each placeholder replaced by its value. */
    static StringBuilder append(StringBuilder out, List<Segment> segments, Map<String, String> values) {
        for (Segment segment : segments) {
            if (!segment.placeholder()) {
                out.append(segment.text());
                continue;
            }
            String value = values.get(segment.text());
            if (value == null) {
                throw new IllegalArgumentException("no value for {{ " + segment.text() + " }}");
            }
            out.append(value);
        }
        return out;
    }
}
