package dev.mnemo.console;

import dev.mnemo.MemoryEngine;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/** The console's routes: each page answers GET, each action POST; and the refusal pages. */
final class Pages {

    private Pages() {}

    /** Every route, by its exact path: nothing else is served. */
    static Map<String, ConsoleServer.Route> routes(ConsoleBuilder.Settings settings, Refresh refresh) {
        MemoryEngine engine = settings.engine();
        Clock clock = settings.clock();
        Layout layout = new Layout(settings.label());
        MemoryFolder folder = new MemoryFolder(engine.tools());
        OverviewPage overview = new OverviewPage(engine, folder, refresh, layout, clock);
        MemoryPage memory = new MemoryPage(engine, folder, layout);
        ProvenancePage provenance = new ProvenancePage(engine, layout, clock);
        HistoryPage history = new HistoryPage(engine, layout, clock);
        ConversationsPage conversations = new ConversationsPage(engine, layout, clock);
        PendingPage pending = new PendingPage(engine, layout, clock);
        RefreshPage refreshPage = new RefreshPage(engine, refresh, layout, clock);

        Map<String, ConsoleServer.Route> routes = new HashMap<>(Assets.routes());
        routes.put(Layout.OVERVIEW.route(), get(overview::render));
        routes.put(Layout.MEMORY.route(), get(memory::render));
        routes.put(Layout.PROVENANCE.route(), get(provenance::render));
        routes.put(Layout.HISTORY.route(), get(history::render));
        routes.put("/history/rollback", post(history::rollback));
        routes.put(Layout.CONVERSATIONS.route(), get(conversations::render));
        routes.put("/conversations/disable", post(conversations::disable));
        routes.put("/conversations/enable", post(conversations::enable));
        routes.put("/conversations/forget", post(conversations::forget));
        routes.put(DeadJobsPanel.RETRY_ROUTE, post(overview.deadJobs()::retry));
        routes.put(DeadJobsPanel.RETRY_DEAD_ROUTE, post(overview.deadJobs()::retryDead));
        routes.put(Layout.PENDING.route(), get(pending::render));
        routes.put("/pending/approve", post(pending::approve));
        routes.put("/pending/reject", post(pending::reject));
        routes.put(Layout.REFRESH.route(), get(refreshPage::render));
        routes.put("/refresh/start", post(refreshPage::start));
        routes.put(RefreshPage.STATUS_ROUTE, data(refreshPage::status));
        return Map.copyOf(routes);
    }

    /** Whether {@code path} is one of the pages of the navigation (where a token exchange may land). */
    static boolean isPage(String path) {
        return Layout.NAVIGATION.stream().anyMatch(nav -> nav.route().equals(path));
    }

    /** The page for a refused or failed request: its status, a title and the message, nothing else. */
    static Reply problem(HttpProblem problem) {
        String title = switch (problem.status()) {
            case 400 -> "Bad request";
            case 401 -> "Access token needed";
            case 403 -> "Refused";
            case 404 -> "Not found";
            case 405 -> "Method not allowed";
            case 501 -> "Not available";
            default -> problem.status() >= 500 ? "Console error" : "Refused";
        };
        return Layout.bare(problem.status(), title, problem.getMessage());
    }

    private static ConsoleServer.Route get(ConsoleServer.Handler handler) {
        return new ConsoleServer.Route("GET", handler);
    }

    /** Data for a page's script: a GET that must carry the session's CSRF token in its header. */
    private static ConsoleServer.Route data(ConsoleServer.Handler handler) {
        return new ConsoleServer.Route("GET", handler, true);
    }

    private static ConsoleServer.Route post(ConsoleServer.Handler handler) {
        return new ConsoleServer.Route("POST", handler);
    }
}
