package dev.mnemo.console;

import dev.mnemo.DeadJob;
import dev.mnemo.MemoryEngine;
import java.time.Clock;
import java.util.List;

/**
 * The overview's dead jobs: conversations whose every extraction retry failed, each with its
 * reason, when it died and a Retry button, and Retry all; the two POST actions put the jobs back
 * ({@link dev.mnemo.MemoryAdmin#retry}, {@link dev.mnemo.MemoryAdmin#retryDead()}) and return to
 * the overview with a flash saying what happened.
 */
final class DeadJobsPanel {

    /** The action that retries one conversation's job ({@code thread}). */
    static final String RETRY_ROUTE = "/jobs/retry";
    /** The action that retries every dead job. */
    static final String RETRY_DEAD_ROUTE = "/jobs/retry-dead";

    private final MemoryEngine engine;
    private final Clock clock;

    DeadJobsPanel(MemoryEngine engine, Clock clock) {
        this.engine = engine;
        this.clock = clock;
    }

    /** The panel's section; says so when the store cannot list dead jobs. */
    void render(Html html, Request request) {
        html.element("h3", "Dead jobs");
        List<DeadJob> dead;
        try {
            dead = engine.admin().deadJobs();
        } catch (UnsupportedOperationException e) {
            html.element("p", "Unknown: " + e.getMessage(), "class", "muted dead-jobs");
            return;
        }
        if (dead.isEmpty()) {
            html.element("p", "None: every failed extraction still has a retry left.", "class", "muted dead-jobs");
            return;
        }
        html.element("p", dead.size() + " conversation(s) failed every extraction retry and are never extracted again"
                + " unless they change or you retry them. Failures of the model itself (unreachable, rate limited, …)"
                + " never spend a retry; these failed for a reason of their own.", "class", "dead-jobs bad");
        String csrf = request.session().csrf();
        html.open("ul", "class", "plain dead-jobs");
        for (DeadJob job : dead) {
            html.open("li", "data-dead-job", job.threadId());
            html.link(Urls.of(Layout.PROVENANCE.route(), "thread", job.threadId()), job.threadId(), "class", "mono");
            html.text(" · died " + Times.withDistance(job.failedAt(), clock.instant()) + " after " + job.failures()
                    + " failures: ");
            html.element("span", job.reason(), "class", "mono reason");
            html.text(" ");
            html.postButton(RETRY_ROUTE, csrf, "Retry", "retry", null, "thread", job.threadId());
            html.close("li");
        }
        html.close("ul");
        if (dead.size() > 1) {
            html.postButton(RETRY_DEAD_ROUTE, csrf, "Retry all " + dead.size(), "retry-all", null);
        }
    }

    /** POST /jobs/retry: one conversation's job back to pending. */
    Reply retry(Request request) {
        String threadId = request.form().require("thread");
        if (engine.admin().retry(threadId)) {
            request.session().flash(true, "Conversation " + threadId + " will be extracted again: its job is"
                    + " claimable now with its retries restored (Refresh now runs it at once).");
        } else {
            request.session().flash(false, "Conversation " + threadId + " has no failed job; nothing changed.");
        }
        return Reply.redirect(Layout.OVERVIEW.route());
    }

    /** POST /jobs/retry-dead: every dead job back to pending. */
    Reply retryDead(Request request) {
        int retried = engine.admin().retryDead();
        request.session().flash(retried > 0, retried > 0
                ? retried + " dead job(s) put back with their retries restored (Refresh now runs them at once)."
                : "No dead jobs; nothing changed.");
        return Reply.redirect(Layout.OVERVIEW.route());
    }
}
