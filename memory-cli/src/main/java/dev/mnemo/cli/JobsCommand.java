package dev.mnemo.cli;

import dev.mnemo.DeadJob;
import dev.mnemo.MemoryEngine;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo jobs}: the dead Phase 1 jobs (conversations whose every retry failed, so nothing
 * extracts them again), and {@code jobs retry THREAD_ID | --dead} to put failed jobs back, over
 * {@link dev.mnemo.MemoryAdmin#deadJobs()}, {@link dev.mnemo.MemoryAdmin#retry} and
 * {@link dev.mnemo.MemoryAdmin#retryDead()}. Of a home, or of one tenant of a PostgreSQL backend.
 */
@Command(name = "jobs", description = "List the dead Phase 1 jobs (every retry failed); `jobs retry` puts them back.")
final class JobsCommand implements Callable<Integer> {

    /** How much of a failure reason a text line shows. */
    static final int REASON_CHARS = 120;

    @ParentCommand
    MnemoCli root;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Mixin
    TenantOption tenantOption;

    @Override
    public Integer call() {
        try (TenantOption.OpenEngine opened = tenantOption.openReadOnly(root)) {
            List<DeadJob> dead = opened.engine().admin().deadJobs();
            PrintWriter out = root.out();
            if (json) {
                JsonOut.print(out, dead.stream().map(JobsCommand::toJson).toList());
            } else if (dead.isEmpty()) {
                out.println("no dead jobs: every failed extraction still has a retry left");
            } else {
                for (DeadJob job : dead) {
                    out.println(line(job));
                }
                out.println(dead.size() + " dead job(s); `mnemo jobs retry THREAD_ID` or `mnemo jobs retry --dead`"
                        + " puts them back");
            }
            out.flush();
        }
        return 0;
    }

    @Command(name = "retry", description = "Put a failed Phase 1 job back, claimable now with its retries restored: "
            + "one thread's (dead or waiting out a retry delay), or with --dead every dead one. `mnemo run` then "
            + "extracts them.")
    int retry(@Parameters(paramLabel = "THREAD_ID", arity = "0..1", description = "The thread whose job to retry.")
            String threadId,
            @Option(names = "--dead", description = "Retry every dead job instead of one thread's.") boolean dead) {
        if ((threadId == null) == !dead) {
            throw new MnemoCli.UsageProblem("`mnemo jobs retry` takes a THREAD_ID or --dead (one of the two); "
                    + "`mnemo jobs` lists the dead jobs");
        }
        try (TenantOption.OpenEngine opened = tenantOption.openExisting(root)) {
            MemoryEngine engine = opened.engine();
            PrintWriter out = root.out();
            if (dead) {
                int retried = engine.admin().retryDead();
                out.println(retried == 0 ? "no dead jobs to retry"
                        : retried + " dead job(s) put back, claimable now with their retries restored; `mnemo run` "
                                + "extracts them");
            } else {
                ThreadsCommand.requireThread(engine, threadId);
                out.println(engine.admin().retry(threadId)
                        ? "thread " + threadId + ": job put back, claimable now with its retries restored; `mnemo run` "
                                + "extracts it"
                        : "thread " + threadId + " has no failed job (it is done, pending or running): nothing to retry");
            }
            out.flush();
        }
        return 0;
    }

    /** One dead job on one line: thread, when it died, after how many failures, and why (cut to {@link #REASON_CHARS}). */
    static String line(DeadJob job) {
        return String.format("%-38s %-22s %d failures: %s", job.threadId(), job.failedAt(), job.failures(),
                oneLine(job.reason()));
    }

    static java.util.Map<String, Object> toJson(DeadJob job) {
        return JsonOut.object("thread_id", job.threadId(), "reason", job.reason(), "failed_at", job.failedAt().toString(),
                "failures", job.failures());
    }

    private static String oneLine(String text) {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= REASON_CHARS ? line : line.substring(0, REASON_CHARS - 1) + "…";
    }
}
