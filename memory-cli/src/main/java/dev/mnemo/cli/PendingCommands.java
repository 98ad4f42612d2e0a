package dev.mnemo.cli;

import dev.mnemo.Approval;
import dev.mnemo.MemoryEngine;
import dev.mnemo.PendingMemory;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code pending}, {@code approve ID} and {@code reject ID}: the approval queue of
 * {@code approval = "ask"}, over {@link dev.mnemo.MemoryAdmin}.
 */
final class PendingCommands {

    /** How much of a pending memory's text {@code pending} prints on its line. */
    static final int PREVIEW_CHARS = 100;

    private PendingCommands() {}

    /** {@code mnemo pending}. */
    @Command(name = "pending", description = "List the memories and notes waiting for approval (approval = \"ask\").")
    static final class Pending implements Callable<Integer> {
        @ParentCommand
        MnemoCli root;

        @Option(names = "--json", description = "Print JSON, with each memory's whole text.")
        boolean json;

        @Override
        public Integer call() {
            try (MemoryEngine engine = root.openExistingEngine()) {
                List<PendingMemory> pending = engine.admin().pending();
                PrintWriter out = root.out();
                if (json) {
                    JsonOut.print(out, pending.stream().map(p -> JsonOut.object("id", p.id(), "kind", p.kind(),
                            "thread_id", p.threadId(), "text", p.text(), "created_at", p.createdAt().toString()))
                            .toList());
                } else if (pending.isEmpty()) {
                    out.println(engine.config().approval() == Approval.ASK ? "nothing is waiting for approval"
                            : "nothing is waiting: approval is \"auto\" (set approval = \"ask\" under [memories] in"
                                    + " config.toml to approve each memory first)");
                } else {
                    pending.forEach(p -> out.printf("%-44s %-6s %-24s %s%n", p.id(), p.kind(), p.createdAt(),
                            preview(p.text())));
                }
                out.flush();
            }
            return 0;
        }

        private static String preview(String text) {
            String line = text.strip().replaceAll("\\s+", " ");
            return line.length() <= PREVIEW_CHARS ? line : line.substring(0, PREVIEW_CHARS - 1) + "…";
        }
    }

    /** What {@code approve} and {@code reject} share: the id, and an unknown one as a usage error. */
    abstract static class Decision implements Callable<Integer> {
        @ParentCommand
        MnemoCli root;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "ID", description = "An id from `mnemo pending`.")
        String id;

        /** Approves or rejects {@link #id}; what to print then. */
        abstract String decide(MemoryEngine engine);

        @Override
        public Integer call() {
            try (MemoryEngine engine = root.openExistingEngine()) {
                String done;
                try {
                    done = decide(engine);
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "nothing pending has id '" + id
                            + "'; `mnemo pending` lists the ids waiting for a decision");
                }
                root.out().println(done);
                root.out().flush();
            }
            return 0;
        }
    }

    /** {@code mnemo approve ID}. */
    @Command(name = "approve", description = "Approve a pending memory or note: the next consolidation folds it in.")
    static final class Approve extends Decision {
        @Override
        String decide(MemoryEngine engine) {
            engine.admin().approve(id);
            return "approved " + id + "; the next consolidation folds it in (`mnemo run`)";
        }
    }

    /** {@code mnemo reject ID}. */
    @Command(name = "reject", description = "Reject a pending memory or note: it is forgotten, as deleting forgets.")
    static final class Reject extends Decision {
        @Override
        String decide(MemoryEngine engine) {
            engine.admin().reject(id);
            return "rejected " + id + "; it is forgotten";
        }
    }
}
