package dev.mnemo.console;

import java.util.List;

/** The frame around every page: head (the console's own style and script only), navigation, the action message. */
final class Layout {

    /** A navigation entry: its route and its name. */
    record Nav(String route, String name) {}

    static final Nav OVERVIEW = new Nav("/", "Overview");
    static final Nav MEMORY = new Nav("/memory", "Memory");
    static final Nav PROVENANCE = new Nav("/provenance", "Provenance");
    static final Nav HISTORY = new Nav("/history", "History");
    static final Nav CONVERSATIONS = new Nav("/conversations", "Conversations");
    static final Nav PENDING = new Nav("/pending", "Pending");
    static final Nav REFRESH = new Nav("/refresh", "Refresh now");
    static final List<Nav> NAVIGATION = List.of(OVERVIEW, MEMORY, PROVENANCE, HISTORY, CONVERSATIONS, PENDING, REFRESH);

    private final String label;

    Layout(String label) {
        this.label = label;
    }

    /** A whole page: {@code body} framed, under the title {@code title}, with {@code active} marked in the navigation. */
    Reply page(Request request, Nav active, String title, Html.Fragment body) {
        Html html = new Html();
        html.append(new Html.Fragment("<!DOCTYPE html>"));
        html.open("html", "lang", "en").open("head");
        html.open("meta", "charset", "utf-8");
        html.open("meta", "name", "viewport", "content", "width=device-width, initial-scale=1");
        // The session's CSRF token, for the script's data reads (sent in a header, never in a URL).
        html.open("meta", "name", "mnemo-csrf", "content", request.session().csrf());
        html.element("title", title + " · Mnemo console");
        html.open("link", "rel", "stylesheet", "href", Assets.CSS);
        html.open("link", "rel", "icon", "href", Assets.ICON);
        html.open("script", "src", Assets.JS, "defer", "").close("script");
        html.close("head");
        html.open("body", "data-page", active.name());
        html.open("header", "class", "top");
        html.open("a", "class", "brand", "href", "/").open("img", "src", Assets.ICON, "alt", "", "class", "logo")
                .text("Mnemo").close("a");
        html.element("span", label, "class", "label", "title", label);
        html.open("nav");
        for (Nav nav : NAVIGATION) {
            html.link(nav.route(), nav.name(), "class", nav.equals(active) ? "active" : null,
                    "aria-current", nav.equals(active) ? "page" : null);
        }
        html.close("nav").close("header");
        html.open("main");
        request.session().takeFlash().ifPresent(flash -> html.element("p", flash.message(), "class",
                flash.ok() ? "flash ok" : "flash failed", "role", "status"));
        html.element("h1", title);
        html.append(body);
        html.close("main");
        html.open("footer").text("Mnemo console · served from this machine only · memory text is shown escaped")
                .close("footer");
        html.close("body").close("html");
        return Reply.html(200, html.toString());
    }

    /** A page without the frame, for refusals (401, 403, 404...): nothing of the memory is on it. */
    static Reply bare(int status, String title, String message) {
        Html html = new Html();
        html.append(new Html.Fragment("<!DOCTYPE html>"));
        html.open("html", "lang", "en").open("head").open("meta", "charset", "utf-8");
        html.element("title", title + " · Mnemo console");
        html.close("head").open("body", "class", "bare").open("main");
        html.element("h1", title).element("p", message);
        if (status != 401) {
            html.open("p").link(OVERVIEW.route(), "Back to the console").close("p");
        }
        html.close("main").close("body").close("html");
        return Reply.html(status, html.toString());
    }
}
