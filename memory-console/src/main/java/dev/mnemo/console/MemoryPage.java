package dev.mnemo.console;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryFileHeadings;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Memory: the memory folder as the agent's model sees it, rendered (summary, handbook, skills,
 * rollout summaries, each project's files), with the folder's search. A file that names the
 * conversations it came from links to their provenance.
 */
final class MemoryPage {

    private final MemoryEngine engine;
    private final MemoryFolder folder;
    private final Layout layout;

    MemoryPage(MemoryEngine engine, MemoryFolder folder, Layout layout) {
        this.engine = engine;
        this.folder = folder;
        this.layout = layout;
    }

    Reply render(Request request) {
        Optional<String> query = request.query().get(Params.SEARCH);
        Optional<String> path = request.query().get("path");
        List<MemoryFolder.Entry> tree = folder.tree();
        Html html = new Html();
        searchForm(html, query.orElse(""));
        html.open("div", "class", "split");
        html.open("nav", "class", "tree", "aria-label", "memory files");
        if (tree.isEmpty()) {
            html.element("p", "The memory folder is empty: nothing has been consolidated yet.", "class", "muted");
        }
        String shown = path.orElseGet(() -> defaultFile(tree));
        treeLinks(html, tree, shown, ProjectNames.of(engine));
        html.close("nav");
        html.open("article", "class", "file");
        if (query.isPresent()) {
            results(html, query.get());
        } else if (shown != null) {
            file(html, shown);
        }
        html.close("article");
        html.close("div");
        return layout.page(request, Layout.MEMORY, "Memory", html.fragment());
    }

    private static String defaultFile(List<MemoryFolder.Entry> tree) {
        return tree.stream().filter(e -> !e.directory()).map(MemoryFolder.Entry::path).findFirst().orElse(null);
    }

    private static void searchForm(Html html, String query) {
        html.open("form", "method", "get", "action", Layout.MEMORY.route(), "class", "search", "role", "search");
        html.open("input", "type", "search", "name", Params.SEARCH, "value", query, "placeholder", "Search the memory folder",
                "aria-label", "search the memory folder");
        html.element("button", "Search", "type", "submit");
        html.close("form");
    }

    private static void treeLinks(Html html, List<MemoryFolder.Entry> tree, String shown, ProjectNames projects) {
        html.open("ul");
        for (MemoryFolder.Entry entry : tree) {
            html.open("li", "class", "depth-" + Math.min(entry.depth(), 3) + (entry.directory() ? " folder" : ""));
            if (entry.directory() && entry.path().equals(MemoryFolder.PROJECTS + "/" + entry.name())) {
                // A project folder: its readable name, the whole slug on hover.
                html.element("span", projects.name(entry.name()) + "/", "class", "project", "title",
                        projects.title(entry.name()));
            } else if (entry.directory()) {
                html.element("span", entry.name() + "/");
            } else {
                html.link(Urls.of(Layout.MEMORY.route(), "path", entry.path()), entry.name(), "class",
                        entry.path().equals(shown) ? "current" : null, "title", entry.path());
            }
            html.close("li");
        }
        html.close("ul");
    }

    private void file(Html html, String path) {
        MemoryFolder.FileText file = folder.read(path)
                .orElseThrow(() -> HttpProblem.notFound("no memory file " + path));
        html.open("header", "class", "file-head").element("h2", path, "class", "mono");
        Set<String> threads = threadIds(file.content());
        if (!threads.isEmpty()) {
            html.open("p", "class", "provenance-links").text("From conversation" + (threads.size() > 1 ? "s " : " "));
            boolean first = true;
            for (String thread : threads) {
                if (!first) {
                    html.text(", ");
                }
                first = false;
                html.link(Urls.of(Layout.PROVENANCE.route(), "thread", thread), thread, "class", "mono provenance");
            }
            html.close("p");
        }
        html.close("header");
        if (file.truncated()) {
            html.element("p", "This file is longer than the read limit; its middle is left out.", "class", "muted");
        }
        html.append(MarkdownView.render(file.content(), Optional.of(path)));
    }

    /**
     * The conversations a file names (a rollout summary's {@code thread_id:} line, the
     * {@code raw_memories.md} headings: {@link MemoryFileHeadings}), in order, without repeats.
     */
    static Set<String> threadIds(String content) {
        Set<String> ids = new LinkedHashSet<>();
        MemoryFileHeadings.parse(content).forEach(heading -> ids.add(heading.threadId()));
        return ids;
    }

    private void results(Html html, String query) {
        List<MemoryFolder.Match> matches = folder.search(query);
        html.element("h2", matches.size() + " line" + (matches.size() == 1 ? "" : "s") + " with “" + query + "”");
        if (matches.isEmpty()) {
            html.element("p", "Nothing in the memory folder contains it.", "class", "muted");
            return;
        }
        html.open("ol", "class", "matches");
        for (MemoryFolder.Match match : matches) {
            html.open("li");
            html.link(Urls.of(Layout.MEMORY.route(), "path", match.path()), match.path() + ":" + match.line(),
                    "class", "mono");
            html.open("div", "class", "line");
            highlight(html, match.content().strip(), query);
            html.close("div").close("li");
        }
        html.close("ol");
    }

    /** {@code line} with each occurrence of {@code query} (ignoring case) in a {@code mark}, all of it encoded. */
    static void highlight(Html html, String line, String query) {
        String lower = line.toLowerCase(Locale.ROOT);
        String needle = query.strip().toLowerCase(Locale.ROOT);
        int from = 0;
        int at = needle.isEmpty() || lower.length() != line.length() ? -1 : lower.indexOf(needle);
        while (at >= 0) {
            html.text(line.substring(from, at)).element("mark", line.substring(at, at + needle.length()));
            from = at + needle.length();
            at = lower.indexOf(needle, from);
        }
        html.text(line.substring(from));
    }
}
