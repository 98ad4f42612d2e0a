package dev.mnemo.console;

import dev.mnemo.Approval;
import dev.mnemo.Consolidation;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.ExtractionBudget;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase2FailureReason;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.TokenCounter;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Overview: the share of the last day's answers given, reading and citing memory
 * ({@link ReceiptsPanel}), the pipeline's state (jobs, leases, failures with their reasons, dead jobs
 * with a retry action ({@link DeadJobsPanel}), the last consolidation, why one cannot run
 * ({@link ConsolidationBlock}), when the next may run and why), the
 * tokens "refresh now" spent, and how much of the summary budget each scope uses.
 */
final class OverviewPage {

    /** The job kind of Phase 2, as the stores name it. */
    static final String CONSOLIDATION_JOB = "memory_consolidate_global";

    private final MemoryEngine engine;
    private final MemoryFolder folder;
    private final Refresh refresh;
    private final Layout layout;
    private final Clock clock;
    private final DeadJobsPanel deadJobs;

    OverviewPage(MemoryEngine engine, MemoryFolder folder, Refresh refresh, Layout layout, Clock clock) {
        this.engine = engine;
        this.folder = folder;
        this.refresh = refresh;
        this.layout = layout;
        this.clock = clock;
        this.deadJobs = new DeadJobsPanel(engine, clock);
    }

    /** The dead jobs' panel, whose actions the routes call. */
    DeadJobsPanel deadJobs() {
        return deadJobs;
    }

    Reply render(Request request) {
        MemoryStatus status = engine.admin().status();
        List<Consolidation> history = engine.admin().history();
        Html html = new Html();
        cards(html, status, history);
        ReceiptsPanel.overview(html, engine, clock.instant());
        html.open("div", "class", "columns");
        html.open("section", "class", "panel");
        html.element("h2", "Pipeline");
        consolidation(html, status, history);
        jobs(html, status);
        extractionBudget(html, status);
        html.close("section");
        html.open("section", "class", "panel");
        html.element("h2", "Summary budget");
        budgets(html);
        failures(html, status);
        deadJobs.render(html, request);
        logLosses(html);
        html.close("section");
        html.close("div");
        return layout.page(request, Layout.OVERVIEW, "Overview", html.fragment());
    }

    private void cards(Html html, MemoryStatus status, List<Consolidation> history) {
        html.open("div", "class", "cards");
        int enabled = status.threadCounts().getOrDefault(MemoryMode.ENABLED, 0);
        int others = status.threadCounts().values().stream().mapToInt(Integer::intValue).sum() - enabled;
        card(html, "Conversations", Integer.toString(enabled + others),
                enabled + " enabled, " + others + " disabled or polluted", Layout.CONVERSATIONS.route());
        card(html, "Stored memories", Integer.toString(status.stage1Outputs()), "one per extracted conversation",
                Layout.PROVENANCE.route());
        card(html, "Consolidations", Integer.toString(history.size()), "kept in the folder's history",
                Layout.HISTORY.route());
        boolean ask = engine.config().approval() == Approval.ASK;
        card(html, "Approval", ask ? "ask" : "auto", ask ? pendingCount() + " waiting" : "memories apply at once",
                Layout.PENDING.route());
        TokenUsage spent = refresh.state().spent();
        card(html, "Tokens spent", String.format(Locale.ROOT, "%,d", spent.totalTokens()),
                String.format(Locale.ROOT, "by refreshes from this console: %,d in, %,d out", spent.inputTokens(),
                        spent.outputTokens()), Layout.REFRESH.route());
        html.close("div");
    }

    private String pendingCount() {
        try {
            return Integer.toString(engine.admin().pending().size());
        } catch (UnsupportedOperationException e) {
            return "?";
        }
    }

    private static void card(Html html, String title, String figure, String note, String href) {
        html.open("a", "class", "card", "href", href);
        html.element("span", title, "class", "card-title");
        html.element("span", figure, "class", "figure");
        html.element("span", note, "class", "note");
        html.close("a");
    }

    private void consolidation(Html html, MemoryStatus status, List<Consolidation> history) {
        Instant now = clock.instant();
        html.open("dl", "class", "facts");
        html.element("dt", "Last consolidation");
        html.element("dd", lastConsolidation(status, history, now), "class", "last-consolidation");
        ConsolidationBlock.why(status, now).ifPresent(why -> {
            html.element("dt", "Why it cannot run");
            html.element("dd", why, "class", "consolidation-blocked bad");
        });
        forgetPending(status).ifPresent(forgotten -> {
            html.element("dt", "Re-consolidation");
            html.element("dd", "pending after a forget" + forgotten + ": the forgotten text is already out of the memory"
                    + " folder, which is back as it was before that conversation was first used; the next consolidation,"
                    + " due now, brings back the other conversations' memories (Refresh now runs it)", "class",
                    "forget-pending");
        });
        forgetInProgress(status).ifPresent(text -> {
            html.element("dt", "Forget in progress");
            html.element("dd", text, "class", "forget-in-progress");
        });
        if (!history.isEmpty()) {
            Consolidation newest = history.get(0);
            html.element("dt", "Newest history entry");
            html.open("dd").link(Urls.of(Layout.HISTORY.route(), "id", newest.id()), newest.id(), "class", "mono")
                    .text(" · " + newest.inputs() + " memories" + (newest.model().isEmpty() ? "" : " · " + newest.model()))
                    .close("dd");
        }
        html.element("dt", "Next possible run");
        html.element("dd", nextRun(status, now));
        html.element("dt", "Approval");
        html.element("dd", engine.config().approval() == Approval.ASK
                ? "ask: new memories and notes wait on the Pending page until you approve them"
                : "auto: new memories and notes apply as soon as they are made (Codex's behaviour)");
        html.close("dl");
    }

    /**
     * When the last consolidation succeeded: the store's record, else the newest consolidation kept
     * in the folder's history (after a forget, the store's job row holds the pending forget, not
     * the last success); "never" only when neither has one.
     */
    static String lastConsolidation(MemoryStatus status, List<Consolidation> history, Instant now) {
        if (status.lastPhase2Success().isPresent()) {
            return Times.withDistance(status.lastPhase2Success().get(), now);
        }
        if (!history.isEmpty()) {
            return Times.withDistance(history.get(0).at(), now) + ", the newest kept in the history";
        }
        return "never";
    }

    /**
     * When the consolidation job's last error is a forget waiting for its re-consolidation
     * ({@link Phase2FailureReason#FORGET_PENDING}): what follows the code (which conversations),
     * as {@code " of [chat-x]"}, or {@code ""}.
     */
    static Optional<String> forgetPending(MemoryStatus status) {
        return status.lastPhase2Failure().filter(OverviewPage::isForgetPending).map(failure -> {
            int at = failure.indexOf("forgetting ");
            return at < 0 ? "" : " of " + failure.substring(at + "forgetting ".length()).strip();
        });
    }

    /**
     * Forgets whose text the memory folder may still hold (the store's pending forgets: waiting for
     * a running consolidation, or left by a process that died): what to say of them, or empty.
     */
    static Optional<String> forgetInProgress(MemoryStatus status) {
        if (status.pendingForgets().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("the text of " + String.join(", ", status.pendingForgets()) + " is being dropped from the"
                + " memory folder and its history; until that is done, sessions of this engine get no memory");
    }

    static boolean isForgetPending(String failure) {
        return failure.startsWith(Phase2FailureReason.FORGET_PENDING.code());
    }

    /** When Phase 2 may run next, and why not sooner. */
    static String nextRun(MemoryStatus status, Instant now) {
        Optional<MemoryStatus.Lease> running = status.runningLeases().stream()
                .filter(lease -> lease.kind().equals(CONSOLIDATION_JOB)).findFirst();
        if (running.isPresent()) {
            return "running now (worker " + running.get().workerId() + ", lease until "
                    + Times.format(running.get().leaseUntil()) + "); Refresh now waits for it, never past it";
        }
        if (forgetPending(status).isPresent()) {
            return "now: a forget made the next consolidation due at once; it runs when a session starts, a"
                    + " scheduler calls the pipeline, or you refresh";
        }
        if (status.phase2NotBefore().isPresent()) {
            Instant opens = status.phase2NotBefore().get();
            String why = status.lastPhase2Failure().isPresent()
                    ? "the retry backoff after the last failure"
                    : "the six-hour cooldown after the last success";
            return "not before " + Times.withDistance(opens, now) + ": " + why + ". Refresh now runs at once anyway.";
        }
        return "now: the lock is open; it runs when a session starts, a scheduler calls the pipeline, or you refresh";
    }

    private static void jobs(Html html, MemoryStatus status) {
        html.element("h3", "Jobs");
        if (status.jobCounts().isEmpty()) {
            html.element("p", "No job has run yet.", "class", "muted");
        } else {
            TreeSet<String> states = new TreeSet<>();
            status.jobCounts().values().forEach(counts -> states.addAll(counts.keySet()));
            html.open("table", "class", "grid").open("thead").open("tr").element("th", "kind");
            states.forEach(state -> html.element("th", state, "class", "num"));
            html.close("tr").close("thead").open("tbody");
            new TreeMap<>(status.jobCounts()).forEach((kind, counts) -> {
                html.open("tr").element("td", kind, "class", "mono");
                // A consolidation job in error only because a forget waits for its re-consolidation is no failure.
                boolean bad = !(kind.equals(CONSOLIDATION_JOB) && forgetPending(status).isPresent());
                states.forEach(state -> html.element("td", Integer.toString(counts.getOrDefault(state, 0)), "class",
                        "num" + (bad && "error".equals(state) && counts.getOrDefault(state, 0) > 0 ? " bad" : "")));
                html.close("tr");
            });
            html.close("tbody").close("table");
        }
        html.element("h3", "Leases");
        if (status.runningLeases().isEmpty()) {
            html.element("p", "Nothing is running.", "class", "muted");
            return;
        }
        html.open("ul", "class", "plain");
        for (MemoryStatus.Lease lease : status.runningLeases()) {
            html.open("li").element("span", lease.kind(), "class", "mono")
                    .text(" " + lease.jobKey() + " · worker " + lease.workerId() + " · lease until "
                            + Times.format(lease.leaseUntil()))
                    .close("li");
        }
        html.close("ul");
    }

    /**
     * Each scope against the limit it gets: the global summary against the whole limit in sessions
     * of no project; each project's summary against the whole limit, and the global one against
     * what that project's sessions leave it (the project's summary comes first).
     */
    private void budgets(Html html) {
        long limit = engine.config().summaryTokenLimit();
        TokenCounter counter = engine.tokenCounter();
        html.element("p", "Each scope's " + MemoryFolder.SUMMARY + " against the part of summary_token_limit ("
                + limit + " tokens, " + BudgetBar.countedAs(counter) + ") it gets: a session in a project reads the"
                + " project's summary first, and the global one gets what is left.", "class", "muted");
        long global = folder.read(MemoryFolder.SUMMARY).map(f -> BudgetBar.tokens(f.content(), counter)).orElse(0L);
        html.append(BudgetBar.of("global, in sessions of no project", global, limit));
        ProjectNames names = ProjectNames.of(engine);
        for (String project : folder.projectFolders()) {
            String slug = project.substring(project.lastIndexOf('/') + 1);
            long tokens = folder.read(project + "/" + MemoryFolder.SUMMARY)
                    .map(f -> BudgetBar.tokens(f.content(), counter)).orElse(0L);
            String name = names.name(slug);
            html.append(BudgetBar.of("project " + name, names.title(slug), tokens, limit));
            html.append(BudgetBar.of("global, in " + name + "'s sessions", names.title(slug), global,
                    BudgetBar.globalLimitInProject(limit, tokens)));
        }
    }

    /** Today's extraction tokens against {@code max_extraction_tokens_per_day}, when one is set. */
    private static void extractionBudget(Html html, MemoryStatus status) {
        if (status.extractionBudget().isEmpty()) {
            return;
        }
        ExtractionBudget budget = status.extractionBudget().get();
        html.element("h3", "Extraction budget");
        html.element("p", "Phase 1 today: " + budget.describe() + (budget.exhausted()
                ? ". No rollout is extracted before then; raise max_extraction_tokens_per_day (0 = unlimited) to lift it."
                : "."), "class", budget.exhausted() ? "extraction-budget bad" : "extraction-budget muted");
    }

    private static void failures(Html html, MemoryStatus status) {
        html.element("h2", "Failures");
        boolean any = false;
        html.open("ul", "class", "plain failures");
        if (status.lastPhase2Failure().isPresent() && !isForgetPending(status.lastPhase2Failure().get())) {
            any = true;
            html.open("li").element("strong", "Consolidation failed: ")
                    .element("span", status.lastPhase2Failure().get(), "class", "mono").close("li");
        }
        if (status.lastModelFailure().isPresent()) {
            any = true;
            html.open("li").element("strong", "The model is failing: ")
                    .text(status.lastModelFailure().get().describe() + " (since "
                            + Times.format(status.lastModelFailure().get().at()) + ")").close("li");
        }
        if (status.lastStartupSkip().isPresent()) {
            any = true;
            html.open("li").element("strong", "Last startup skipped: ")
                    .text(status.lastStartupSkip().get().name().toLowerCase(Locale.ROOT).replace('_', ' ')).close("li");
        }
        for (Map.Entry<String, String> unreadable : new TreeMap<>(status.unreadableRollouts()).entrySet()) {
            any = true;
            html.open("li").element("strong", "Unreadable rollout: ")
                    .element("span", unreadable.getKey(), "class", "mono").text(" — " + unreadable.getValue())
                    .close("li");
        }
        html.close("ul");
        if (!any) {
            html.element("p", "None: the last consolidation, the model and every rollout are fine.", "class", "muted");
        }
    }

    /** Lost thread log entries, in one line (Codex loses them silently). */
    private void logLosses(Html html) {
        ConversationState.Losses losses = ConversationState.losses(engine);
        html.element("p", losses.sentence(), "class", losses.any() ? "log-losses bad" : "muted log-losses");
    }
}
