package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo threads}: list the registered threads, each with its project ({@code -} for a thread
 * in none), or with {@code --tree} as the spawn graph; enable, disable, pollute or forget one. Of a
 * home, or of one tenant of a PostgreSQL backend ({@code --postgres URL --tenant ID}).
 */
@Command(name = "threads", description = "List the registered threads (sessions).")
final class ThreadsCommand implements Callable<Integer> {

    /** The width of the project column of the text listing. */
    static final int PROJECT_WIDTH = 24;

    @ParentCommand
    MnemoCli root;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(names = "--sync", description = "Scan the rollout sources first, so new sessions are listed.")
    boolean sync;

    @Option(names = "--tree", description = "Show which thread spawned which sub-agent thread (the spawn graph).")
    boolean tree;

    @Mixin
    TenantOption tenantOption;

    @Override
    public Integer call() {
        // --sync registers new sessions: a write; without it the listing only looks.
        try (TenantOption.OpenEngine opened = sync ? tenantOption.openExisting(root) : tenantOption.openReadOnly(root)) {
            MemoryEngine engine = opened.engine();
            if (sync) {
                engine.admin().syncThreads();
            }
            List<ThreadInfo> threads = engine.threads().list();
            PrintWriter out = root.out();
            if (tree) {
                SpawnTree.of(engine.agentGraph(), threads).print(out, json);
            } else if (json) {
                JsonOut.print(out, threads.stream().map(t -> JsonOut.object("id", t.id(), "memory_mode",
                        t.memoryMode().dbValue(), "source", t.source(), "updated_at", t.updatedAt().toString(),
                        "created_at", t.createdAt().toString(), "archived", t.archived(),
                        "cwd", t.cwd().map(Object::toString).orElse(null), "git_branch", t.gitBranch().orElse(null),
                        "project", t.project().orElse(null), "rollout_path", t.rolloutPath().toString(),
                        "preview", t.preview())).toList());
            } else {
                if (threads.isEmpty()) {
                    out.println("no threads registered (add --sync to scan the sessions folder)");
                }
                for (ThreadInfo t : threads) {
                    out.printf("%-38s %-8s %-7s %-24s %-" + PROJECT_WIDTH + "s %s%n", t.id(), t.memoryMode().dbValue(),
                            t.source(), t.updatedAt(), project(t), oneLine(t.preview()));
                }
            }
            out.flush();
        }
        return 0;
    }

    /** The project column: the key, its end when longer (a path's end names the repository), or {@code -}. */
    static String project(ThreadInfo thread) {
        String key = thread.project().orElse("-");
        return key.length() <= PROJECT_WIDTH ? key : "…" + key.substring(key.length() - PROJECT_WIDTH + 1);
    }

    private static String oneLine(String text) {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= 60 ? line : line.substring(0, 59) + "…";
    }

    @Command(name = "enable", description = "Let the thread become memory again (not for polluted threads).")
    int enable(@Parameters(paramLabel = "ID") String id) {
        return change(id, engine -> {
            engine.threads().setMemoryMode(id, MemoryMode.ENABLED);
            return "is now enabled";
        });
    }

    @Command(name = "disable", description = "Never extract the thread (its existing memory stays).")
    int disable(@Parameters(paramLabel = "ID") String id) {
        return change(id, engine -> {
            engine.threads().setMemoryMode(id, MemoryMode.DISABLED);
            return "is now disabled";
        });
    }

    @Command(name = "pollute", description = "Mark the thread polluted: forget its memory, never extract it again.")
    int pollute(@Parameters(paramLabel = "ID") String id) {
        return change(id, engine -> (engine.threads().markPolluted(id) ? "marked polluted; its memory is forgotten"
                : "was already polluted") + "; the next consolidation removes it from the memory folder");
    }

    @Command(name = "forget", description = "Remove the thread and its memory; re-consolidates when it was in use.")
    int forget(@Parameters(paramLabel = "ID") String id) {
        return change(id, engine -> {
            engine.threads().delete(id);
            return "forgotten; run `mnemo run` to consolidate without it";
        });
    }

    /** Applies one change to an existing thread and says what happened. */
    private int change(String id, Function<MemoryEngine, String> action) {
        try (TenantOption.OpenEngine opened = tenantOption.openExisting(root)) {
            MemoryEngine engine = opened.engine();
            requireThread(engine, id);
            root.out().println("thread " + id + " " + action.apply(engine));
            root.out().flush();
        }
        return 0;
    }

    static void requireThread(MemoryEngine engine, String id) {
        if (engine.threads().get(id).isEmpty()) {
            throw new MnemoCli.Failure("no thread with id " + id + " (see `mnemo threads`)");
        }
    }
}
