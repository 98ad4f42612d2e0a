package dev.mnemo.cli;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryEngine;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code history}, {@code rollback ID} and {@code clear --yes}: the workspace's consolidations. */
final class HistoryCommands {

    private HistoryCommands() {}

    /** {@code mnemo history}. */
    @Command(name = "history", description = "List the consolidations kept in the workspace history, newest first.")
    static final class History implements Callable<Integer> {
        @ParentCommand
        MnemoCli root;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        public Integer call() {
            try (MemoryEngine engine = root.openExistingEngine()) {
                List<Consolidation> history = engine.admin().history();
                PrintWriter out = root.out();
                if (json) {
                    JsonOut.print(out, history.stream().map(c -> JsonOut.object("id", c.id(), "at", c.at().toString(),
                            "inputs", c.inputs(), "thread_ids", c.threadIds(), "model", c.model())).toList());
                } else if (history.isEmpty()) {
                    out.println("no consolidations yet");
                } else {
                    history.forEach(c -> out.printf("%-40s %-24s %3d input(s)  model %s%n", c.id(), c.at(), c.inputs(),
                            c.model().isEmpty() ? "(not recorded)" : c.model()));
                }
                out.flush();
            }
            return 0;
        }
    }

    /** {@code mnemo rollback ID}. */
    @Command(name = "rollback", description = "Restore the memory folder as a consolidation left it (a new history entry).")
    static final class Rollback implements Callable<Integer> {
        @ParentCommand
        MnemoCli root;

        @Parameters(paramLabel = "ID", description = "A consolidation id from `mnemo history`.")
        String id;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try (MemoryEngine engine = root.openExistingEngine()) {
                if (engine.admin().history().stream().noneMatch(c -> c.id().equals(id))) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "no consolidation has id '" + id
                            + "'; `mnemo history` lists the ids that can be restored");
                }
                engine.admin().rollback(id);
                root.out().println("memory folder restored to consolidation " + id);
                root.out().flush();
            }
            return 0;
        }
    }

    /** {@code mnemo clear --yes}. */
    @Command(name = "clear", description = "Forget everything: stored memories, jobs, the memory folder and its"
            + " history. Threads stay registered.")
    static final class Clear implements Callable<Integer> {
        @ParentCommand
        MnemoCli root;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--yes", description = "Confirm; nothing is deleted without it.")
        boolean yes;

        @Override
        public Integer call() {
            if (!yes) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "clear deletes every memory of " + root.resolveHome() + "; add --yes to confirm");
            }
            try (MemoryEngine engine = root.openEngine()) {
                engine.admin().clear();
                root.out().println("cleared: stored memories, jobs, the memory folder and its history");
                root.out().flush();
            }
            return 0;
        }
    }
}
