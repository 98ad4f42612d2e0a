package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo instructions}: the memory part of the developer instructions an agent would inject
 * now; with {@code --project}, those of a session in that project (its summary and the global one).
 */
@Command(name = "instructions", description = "Print the memory instructions an agent would be given now.")
final class InstructionsCommand implements Callable<Integer> {

    @ParentCommand
    MnemoCli root;

    @Option(names = "--project", paramLabel = "DIR|KEY", description = ProjectOption.DESCRIPTION)
    String project;

    @Override
    public Integer call() {
        String projectKey = project == null ? null : ProjectOption.key(project);
        try (MemoryEngine engine = root.openExistingEngine()) {
            String instructions = projectKey == null ? engine.buildDeveloperInstructions()
                    : engine.buildDeveloperInstructions(projectKey);
            if (instructions.isEmpty()) {
                root.err().println("No memory instructions: there is no memory_summary.md under " + root.resolveHome()
                        .resolve("memories") + " yet (or use_memories is off). Run `mnemo run` or `mnemo demo` first.");
                root.err().flush();
            } else {
                root.out().println(instructions);
                root.out().flush();
            }
        }
        return 0;
    }
}
