package dev.mnemo.console;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.AttributeProvider;
import org.commonmark.renderer.html.DefaultUrlSanitizer;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * Memory files as HTML, with commonmark-java: raw HTML in the Markdown is escaped (shown as text,
 * never parsed: memories are model output and may hold {@code <script>}); links keep only
 * {@code http}, {@code https} and {@code mailto} targets, a relative link to another memory file
 * becomes a console link to it, and any other target ({@code javascript:}, {@code data:},
 * {@code file:}, a path out of the folder) loses its {@code href}; images are not loaded (their
 * alternative text stays), so a memory cannot make the browser fetch anything.
 */
final class MarkdownView {

    private static final List<String> SCHEMES = List.of("http", "https", "mailto");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    private static final Parser PARSER = Parser.builder().extensions(List.of(TablesExtension.create())).build();

    private MarkdownView() {}

    /**
     * {@code markdown} as safe HTML.
     *
     * @param markdown the text
     * @param filePath the memory file it comes from, relative to the memory folder, for its
     *     relative links; empty when it is no file (a pending memory, a transcript)
     */
    static Html.Fragment render(String markdown, Optional<String> filePath) {
        HtmlRenderer renderer = HtmlRenderer.builder()
                .extensions(List.of(TablesExtension.create()))
                .escapeHtml(true)
                .sanitizeUrls(true)
                .urlSanitizer(new DefaultUrlSanitizer(SCHEMES))
                .attributeProviderFactory(context -> new LinkPolicy(filePath))
                .build();
        Node document = PARSER.parse(markdown);
        return new Html.Fragment("<div class=\"markdown\">" + renderer.render(document) + "</div>");
    }

    /** Rewrites or removes link and image targets; see {@link MarkdownView}. */
    private record LinkPolicy(Optional<String> filePath) implements AttributeProvider {

        @Override
        public void setAttributes(Node node, String tagName, Map<String, String> attributes) {
            if (node instanceof Image) {
                attributes.remove("src");
                attributes.put("class", "image-not-loaded");
            } else if (node instanceof Link link) {
                Optional<String> href = target(link.getDestination().strip());
                href.ifPresentOrElse(h -> attributes.put("href", h), () -> {
                    attributes.remove("href");
                    attributes.put("class", "link-removed");
                    attributes.put("title", "link target removed by the console");
                });
            }
        }

        private Optional<String> target(String destination) {
            if (destination.isEmpty() || destination.startsWith("//")) {
                return Optional.empty();
            }
            if (destination.startsWith("#")) {
                return Optional.of(destination);
            }
            if (SCHEME.matcher(destination).find()) {
                String scheme = destination.substring(0, destination.indexOf(':')).toLowerCase(Locale.ROOT);
                return SCHEMES.contains(scheme) ? Optional.of(destination) : Optional.empty();
            }
            return memoryFile(destination).map(path -> Urls.of("/memory", "path", path));
        }

        /** A relative link resolved against the linking file's folder, if it stays inside the memory folder. */
        private Optional<String> memoryFile(String destination) {
            String withoutAnchor = destination.replaceFirst("[#?].*$", "");
            if (filePath.isEmpty() || withoutAnchor.isEmpty() || withoutAnchor.startsWith("/")
                    || withoutAnchor.contains("\\") || withoutAnchor.contains("%")) {
                return Optional.empty();
            }
            Deque<String> parts = new ArrayDeque<>();
            String file = filePath.get();
            int slash = file.lastIndexOf('/');
            if (slash >= 0) {
                for (String part : file.substring(0, slash).split("/")) {
                    parts.addLast(part);
                }
            }
            for (String part : withoutAnchor.split("/")) {
                if (part.isEmpty() || part.equals(".")) {
                    continue;
                }
                if (part.equals("..")) {
                    if (parts.isEmpty()) {
                        return Optional.empty();
                    }
                    parts.removeLast();
                } else if (part.startsWith(".")) {
                    return Optional.empty();
                } else {
                    parts.addLast(part);
                }
            }
            return parts.isEmpty() ? Optional.empty() : Optional.of(String.join("/", parts));
        }
    }
}
