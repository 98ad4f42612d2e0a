package dev.mnemo.console;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.CustomNode;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.NodeRenderer;
import org.commonmark.renderer.html.AttributeProvider;
import org.commonmark.renderer.html.DefaultUrlSanitizer;
import org.commonmark.renderer.html.HtmlNodeRendererContext;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.html.HtmlWriter;

/**
 * Memory files as HTML, with commonmark-java: raw HTML in the Markdown is escaped (shown as text,
 * never parsed: memories are model output and may hold {@code <script>}); links keep only
 * {@code http}, {@code https} and {@code mailto} targets, a relative link to another memory file
 * becomes a console link to it, and any other target ({@code javascript:}, {@code data:},
 * {@code file:}, a path out of the folder) loses its {@code href}; images are not loaded (their
 * alternative text stays), so a memory cannot make the browser fetch anything.
 *
 * <p>A link, autolink or image whose host is this machine or a private network ({@link LocalHosts}:
 * {@code 127.0.0.1} and every loopback form, {@code localhost}, private and link-local ranges) is
 * not an anchor at all: its text is shown as plain text in a {@code span.link-local}. The console's
 * session cookie goes to every port of the loopback address, so one click on such a link would
 * hand it to whatever listens there.
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
                .nodeRendererFactory(LocalLinkRenderer::new)
                .build();
        Node document = PARSER.parse(markdown);
        neutraliseLocalLinks(document);
        return new Html.Fragment("<div class=\"markdown\">" + renderer.render(document) + "</div>");
    }

    /** Replaces every link and image to a local or private host by its text, in a {@link LocalLink}. */
    private static void neutraliseLocalLinks(Node document) {
        List<Node> local = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                if (isLocal(link.getDestination())) {
                    local.add(link);
                }
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                if (isLocal(image.getDestination())) {
                    local.add(image);
                }
                visitChildren(image);
            }
        });
        for (Node node : local) {
            LocalLink replacement = new LocalLink(node instanceof Link l ? l.getDestination()
                    : ((Image) node).getDestination());
            Node child = node.getFirstChild();
            while (child != null) {
                Node next = child.getNext();
                replacement.appendChild(child);
                child = next;
            }
            node.insertBefore(replacement);
            node.unlink();
        }
    }

    /** Whether {@code destination} is a web link (or scheme-relative) to a local or private host. */
    static boolean isLocal(String destination) {
        String target = destination.strip();
        boolean web = target.startsWith("//") || target.startsWith("\\\\") || target.startsWith("/\\")
                || target.startsWith("\\/");
        if (SCHEME.matcher(target).find()) {
            String scheme = target.substring(0, target.indexOf(':')).toLowerCase(Locale.ROOT);
            web = scheme.equals("http") || scheme.equals("https");
        }
        return web && LocalHosts.isLocalLink(target);
    }

    /** Where a link or image to a local host was: its text, never an anchor. */
    static final class LocalLink extends CustomNode {
        final String destination;

        LocalLink(String destination) {
            this.destination = destination;
        }
    }

    /** Renders a {@link LocalLink} as {@code <span class="link-local" title="...">text</span>}. */
    private static final class LocalLinkRenderer implements NodeRenderer {
        private final HtmlNodeRendererContext context;

        LocalLinkRenderer(HtmlNodeRendererContext context) {
            this.context = context;
        }

        @Override
        public Set<Class<? extends Node>> getNodeTypes() {
            return Set.of(LocalLink.class);
        }

        @Override
        public void render(Node node) {
            HtmlWriter html = context.getWriter();
            Map<String, String> attributes = new LinkedHashMap<>();
            attributes.put("class", "link-local");
            attributes.put("title", "not a link: it points at this machine or a private network ("
                    + ((LocalLink) node).destination + ")");
            html.tag("span", attributes);
            Node child = node.getFirstChild();
            while (child != null) {
                Node next = child.getNext();
                context.render(child);
                child = next;
            }
            html.tag("/span");
        }
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
