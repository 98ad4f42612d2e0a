package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code mnemo instructions}: the memory part of the developer instructions an agent would inject now. */
@Command(name = "instructions", description = "Print the memory instructions an agent would be given now.")
final class InstructionsCommand implements Callable<Integer> {

    @ParentCommand
    MnemoCli root;

    @Override
    public Integer call() {
        try (MemoryEngine engine = root.openExistingEngine()) {
            String instructions = engine.buildDeveloperInstructions();
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
