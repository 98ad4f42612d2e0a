package dev.mnemo.cli;

import java.util.List;
import java.util.Set;
import picocli.CommandLine.HelpCommand;

/**
 * The CLI's commands by name: the order help lists them in, which of them a run's arguments name,
 * and a new instance of one. {@link MnemoCli} registers only the commands a run names, so that a run
 * builds picocli's model (a reflective walk of each command class, its options and their types) only
 * for those and loads no other command class; this is the one place that knows every command class.
 */
final class CommandRegistry {

    /**
     * Every command's name, in the order help lists them. The commands are registered by
     * {@link MnemoCli#commandLine} rather than in the {@code @Command} annotation, so that a run builds
     * picocli's model only for the commands it names, and loads no other command class
     * ({@link #newCommand}).
     */
    static final List<String> COMMANDS = List.of("status", "run", "demo", "instructions", "ls", "read",
            "search", "note", "threads", "jobs", "logs", "history", "inputs", "rollback", "clear", "pending", "approve", "reject",
            "ui", "eval", "mcp", "help");

    /** Arguments that need every command: help lists them all. */
    private static final Set<String> HELP_ARGUMENTS = Set.of("-h", "--help", "help");

    private CommandRegistry() {}

    /**
     * The command names that appear among {@code args}, in help's order; every command when none
     * does (a bare {@code mnemo}, {@code --version}, a mistyped command that needs suggestions) or
     * help is asked for. A command's own arguments that happen to be command names ({@code mnemo
     * search status}) only add a command that is never run.
     */
    static List<String> commandsNamedIn(String[] args) {
        List<String> given = List.of(args);
        if (given.stream().anyMatch(HELP_ARGUMENTS::contains)) {
            return COMMANDS;
        }
        List<String> named = COMMANDS.stream().filter(given::contains).toList();
        return named.isEmpty() ? COMMANDS : named;
    }

    /** Whether {@code registered} commands are all of them. */
    static boolean isEveryCommand(int registered) {
        return registered == COMMANDS.size();
    }

    /** A new instance of the command called {@code name}; a switch, so only that command's class is loaded. */
    static Object newCommand(String name) {
        return switch (name) {
            case "status" -> new StatusCommand();
            case "run" -> new RunCommand();
            case "demo" -> new DemoCommand();
            case "instructions" -> new InstructionsCommand();
            case "ls" -> new MemoryFileCommands.Ls();
            case "read" -> new MemoryFileCommands.Read();
            case "search" -> new MemoryFileCommands.Search();
            case "note" -> new MemoryFileCommands.Note();
            case "threads" -> new ThreadsCommand();
            case "jobs" -> new JobsCommand();
            case "logs" -> new LogsCommand();
            case "history" -> new HistoryCommands.History();
            case "inputs" -> new InputsCommand();
            case "rollback" -> new HistoryCommands.Rollback();
            case "clear" -> new HistoryCommands.Clear();
            case "pending" -> new PendingCommands.Pending();
            case "approve" -> new PendingCommands.Approve();
            case "reject" -> new PendingCommands.Reject();
            case "ui" -> new UiCommand();
            case "eval" -> new EvalCommand();
            case "mcp" -> new McpCommand();
            case "help" -> new HelpCommand();
            default -> throw new IllegalArgumentException("no command called " + name);
        };
    }
}
