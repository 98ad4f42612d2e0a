package dev.mnemo.console;

import java.util.regex.Pattern;
import org.owasp.encoder.Encode;

/**
 * Builds a page's HTML so that it is escaped by construction: every text and attribute value goes
 * through the OWASP encoder for its context; tag and attribute names must be plain lower-case
 * names (they are always literals in the console's code); the only HTML taken as it is comes as a
 * {@link Fragment}, which only this class and {@link MarkdownView} make.
 */
final class Html {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");

    private final StringBuilder out = new StringBuilder(4_096);

    /**
     * Opens {@code tag} with attributes given as name, value pairs; a null value leaves the attribute
     * out, an empty one writes it bare-valued ({@code disabled=""}).
     */
    Html open(String tag, String... attributes) {
        out.append('<').append(name(tag));
        if (attributes.length % 2 != 0) {
            throw new IllegalArgumentException("attributes come in name, value pairs; " + tag + " got "
                    + attributes.length + " strings");
        }
        for (int i = 0; i < attributes.length; i += 2) {
            if (attributes[i + 1] != null) {
                out.append(' ').append(name(attributes[i])).append("=\"")
                        .append(Encode.forHtmlAttribute(attributes[i + 1])).append('"');
            }
        }
        out.append('>');
        return this;
    }

    /** Closes {@code tag}. */
    Html close(String tag) {
        out.append("</").append(name(tag)).append('>');
        return this;
    }

    /** Text content, encoded. */
    Html text(String text) {
        out.append(Encode.forHtmlContent(text));
        return this;
    }

    /** {@code <tag attributes>text</tag>}. */
    Html element(String tag, String text, String... attributes) {
        return open(tag, attributes).text(text).close(tag);
    }

    /** A link: {@code <a href=...>text</a>}. */
    Html link(String href, String text, String... attributes) {
        String[] all = new String[attributes.length + 2];
        all[0] = "href";
        all[1] = href;
        System.arraycopy(attributes, 0, all, 2, attributes.length);
        return element("a", text, all);
    }

    /** A fragment made by this class or by {@link MarkdownView}. */
    Html append(Fragment fragment) {
        out.append(fragment.html);
        return this;
    }

    /**
     * A POST form with the session's CSRF token and hidden fields (name, value pairs), whose only
     * visible part is one button. {@code confirm}, when not null, is asked by the console's script
     * before it is sent.
     */
    Html postButton(String action, String csrf, String label, String buttonClass, String confirm, String... fields) {
        open("form", "method", "post", "action", action, "class", "inline", "data-confirm", confirm);
        open("input", "type", "hidden", "name", Params.CSRF, "value", csrf);
        for (int i = 0; i < fields.length; i += 2) {
            open("input", "type", "hidden", "name", fields[i], "value", fields[i + 1]);
        }
        element("button", label, "type", "submit", "class", buttonClass);
        return close("form");
    }

    /** What was built so far, as a fragment to append elsewhere. */
    Fragment fragment() {
        return new Fragment(out.toString());
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private static String name(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain tag or attribute name: " + name);
        }
        return name;
    }

    /** HTML that is safe to insert as it is: made by {@link Html} or {@link MarkdownView} only. */
    static final class Fragment {
        static final Fragment EMPTY = new Fragment("");

        private final String html;

        Fragment(String html) {
            this.html = html;
        }

        @Override
        public String toString() {
            return html;
        }
    }
}
