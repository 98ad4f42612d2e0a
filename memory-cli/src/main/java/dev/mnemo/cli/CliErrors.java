package dev.mnemo.cli;

import dev.mnemo.MemoryException;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * How the CLI reports what went wrong, and with which exit code: a message and no stack trace
 * unless {@code -v}; a {@link MnemoCli.UsageProblem} or bad parameter exits 2, a
 * {@link MnemoCli.Failure} or anything else 1; a mistyped command or option gets a suggestion only
 * when one is close, else the usage (of every command at the top level).
 */
final class CliErrors {

    private CliErrors() {}

    /** What a command that threw prints, and its exit code. */
    static CommandLine.IExecutionExceptionHandler onException(MnemoCli cli) {
        return (e, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            if (e instanceof MnemoCli.UsageProblem problem) {
                err.println("mnemo: " + problem.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            if (e instanceof CommandLine.ParameterException problem) {
                err.println(problem.getMessage());
                err.println("(`" + cmd.getCommandSpec().qualifiedName() + " --help` for usage)");
                return CommandLine.ExitCode.USAGE;
            }
            err.println("mnemo: " + describe(e));
            if (e instanceof MnemoCli.Failure) {
                return CommandLine.ExitCode.SOFTWARE;
            }
            if (cli.verbose) {
                e.printStackTrace(err);
            } else {
                err.println("(run with -v for details)");
            }
            return CommandLine.ExitCode.SOFTWARE;
        };
    }

    /** What arguments picocli cannot parse print: the problem, then a close suggestion or the usage. */
    static CommandLine.IParameterExceptionHandler onBadArguments(MnemoCli cli) {
        return (e, args) -> {
            CommandLine cmd = e.getCommandLine();
            PrintWriter err = cmd.getErr();
            err.println(e.getMessage());
            List<String> close = e instanceof CommandLine.UnmatchedArgumentException unmatched
                    ? Suggestions.close(unmatched) : List.of();
            if (close.isEmpty()) {
                usageWithEveryCommand(cmd, cli).usage(err);
            } else {
                err.println("Did you mean: " + String.join(" or ", close) + "?");
                err.println("(`" + cmd.getCommandSpec().qualifiedName() + " --help` lists every option"
                        + (cmd.getSubcommands().isEmpty() ? "" : " and command") + ")");
            }
            err.flush();
            return cmd.getCommandSpec().exitCodeOnInvalidInput();
        };
    }

    /** {@code cmd}, or when it is the top level and not every command was registered, a full copy of it. */
    private static CommandLine usageWithEveryCommand(CommandLine cmd, MnemoCli cli) {
        if (cmd.getParent() != null || CommandRegistry.isEveryCommand(cmd.getSubcommands().size())) {
            return cmd;
        }
        return MnemoCli.commandLine(cli.freshCopy());
    }

    private static String describe(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof MemoryException || e instanceof MnemoCli.Failure || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException) {
            return message;
        }
        return e.getClass().getSimpleName() + ": " + message;
    }
}
