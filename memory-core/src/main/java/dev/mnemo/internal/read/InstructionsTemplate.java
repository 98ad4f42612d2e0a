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
 * for each new rendering. Loaded when first filled: an engine that never renders never reads it.
 */
final class InstructionsTemplate {

    private static final String RESOURCE = "developer_instructions.md";
    /** Every placeholder the template must use, and the only ones it may. */
    private static final Set<String> PLACEHOLDERS = Set.of("path_prefix", "raw_layout", "scope_layout", "search_how",
            "open_how", "raw_how", "note_how", "memory_summary");
    private static final List<Segment> SEGMENTS = parse(load());

    private InstructionsTemplate() {}

    /**
     * The template with each placeholder replaced by its value.
     *
     * @param values a value for every placeholder
     * @param sizeHint the length of the longest value (the summary), to size the text once
     */
    static String fill(Map<String, String> values, int sizeHint) {
        StringBuilder out = new StringBuilder(sizeHint + 8192);
        for (Segment segment : SEGMENTS) {
            out.append(segment.placeholder() ? values.get(segment.text()) : segment.text());
        }
        return out.toString();
    }

    /** A piece of the template: literal text, or the name of a value inserted at render time. */
    record Segment(String text, boolean placeholder) {}

    private static String load() {
        try (InputStream in = InstructionsTemplate.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource dev/mnemo/internal/read/" + RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + RESOURCE, e);
        }
    }

    /**
     * Splits the template at its {@code {{ name }}} placeholders once, so inserted values (which may
     * themselves contain braces) are never scanned again. Every placeholder must be a known one and
     * every known one must appear.
     */
    static List<Segment> parse(String template) {
        Matcher matcher = Pattern.compile("\\{\\{\\s*([a-z_]+)\\s*}}").matcher(template);
        List<Segment> segments = new ArrayList<>();
        Set<String> seen = new TreeSet<>();
        int last = 0;
        while (matcher.find()) {
            String name = matcher.group(1);
            if (!PLACEHOLDERS.contains(name)) {
                throw new IllegalStateException("unknown placeholder {{ " + name + " }} in " + RESOURCE);
            }
            segments.add(new Segment(template.substring(last, matcher.start()), false));
            segments.add(new Segment(name, true));
            seen.add(name);
            last = matcher.end();
        }
        segments.add(new Segment(template.substring(last), false));
        if (!seen.equals(new TreeSet<>(PLACEHOLDERS))) {
            throw new IllegalStateException(RESOURCE + " uses placeholders " + seen + ", expected "
                    + new TreeSet<>(PLACEHOLDERS));
        }
        return List.copyOf(segments);
    }
}
