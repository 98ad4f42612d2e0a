package dev.mnemo.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo mcp}: serves the home's memory folder to MCP clients (Claude Code, Codex CLI,
 * Cursor...) over stdio until the client closes the input; then exits 0. Read-only unless
 * {@code --allow-notes}; never creates the home. In the project {@code --project} names (or
 * {@code --project-from-cwd}: the repository the server is started in), else in the project of the
 * client's roots when it sends them (see {@link McpScope}); in a project, the tools keep to it and
 * the global memory unless a call says {@code scope: all}.
 *
 * <p>Standard output carries the protocol and nothing else: anything else that prints to
 * {@code System.out} lands on standard error, as do the logs (WARN and above unless {@code -v}).
 */
@Command(name = "mcp", description = "Serve the memory folder over the Model Context Protocol (stdio), for"
        + " Claude Code, Codex CLI and other MCP clients. Read-only unless --allow-notes.")
final class McpCommand implements Callable<Integer> {

    @ParentCommand
    MnemoCli root;

    /** The inherited global options that do nothing for {@code mcp}: left out of its help and parsing. */
    static final List<String> INAPPLICABLE_OPTIONS = List.of("--base-url", "--model", "--api", "--reasoning-effort",
            "--quiet");

    @Option(names = "--allow-notes", description = "Also serve memories_add_ad_hoc_note, which writes a new note"
            + " into the memory folder (folded in at the next consolidation). Clients may call it without asking"
            + " the user, even in a read-only sandbox.")
    boolean allowNotes;

    @Option(names = "--max-output-tokens", paramLabel = "TOKENS",
            description = "The most one tool answer may hold, in tokens of 4 bytes (default: ${DEFAULT-VALUE}, which"
                    + " fits Codex's default tool_output_token_limit); longer answers come in pages with a"
                    + " next_cursor or next_line_offset. At least " + OutputBudget.MIN_MAX_TOKENS + ".")
    int maxOutputTokens = OutputBudget.DEFAULT_MAX_TOKENS;

    @Option(names = "--project", paramLabel = "DIR|KEY", description = ProjectOption.DESCRIPTION + " Without it"
            + " (or --project-from-cwd), the tools serve the project of the client's first file:// root when the"
            + " client sends roots.")
    String project;

    @Option(names = "--project-from-cwd", description = "The project is the git repository around the server's"
            + " working directory (worktrees share their main repository's project; outside a repository, the"
            + " directory itself): for clients that start the server in the project and send no roots, such as"
            + " Codex CLI. Not with --project.")
    boolean projectFromCwd;

    /** Removes {@link #INAPPLICABLE_OPTIONS} from the {@code mcp} command that {@code spec} describes. */
    static void dropInapplicableOptions(CommandSpec spec) {
        for (String name : INAPPLICABLE_OPTIONS) {
            OptionSpec option = spec.findOption(name);
            if (option != null) {
                spec.remove(option);
            }
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        if (maxOutputTokens < OutputBudget.MIN_MAX_TOKENS) {
            throw new MnemoCli.UsageProblem("--max-output-tokens must be at least " + OutputBudget.MIN_MAX_TOKENS
                    + ", was " + maxOutputTokens);
        }
        Optional<String> projectKey = projectKey(Path.of("").toAbsolutePath());
        OutputStream protocol = takeStandardOutput();
        configureLogging(root.verbose);
        Path home = root.resolveHome();
        if (!Files.isDirectory(home)) {
            System.err.println("mnemo mcp: the home " + home + " does not exist; every call answers with an error"
                    + " until it does (it is not created here)");
        }
        ObjectMapper json = new ObjectMapper();
        McpJsonMapper mapper = new JacksonMcpJsonMapper(json);
        StdioGuard stdio = new StdioGuard(System.in, protocol, mapper, json);
        McpMemoryServer.Settings settings =
                new McpMemoryServer.Settings(home, allowNotes, maxOutputTokens, Installation.version(), projectKey);
        McpSyncServer server = new McpMemoryServer(settings, Clock.systemUTC(), json, mapper).start(new StdioTransport(mapper, stdio.input(), stdio.output()));
        try {
            stdio.awaitEnd();
        } finally {
            server.closeGracefully(); // what was queued is written before the exit
        }
        return 0;
    }

    /**
     * The project {@code --project} or {@code --project-from-cwd} names, the latter for the server
     * working in {@code cwd}; empty for neither.
     *
     * @throws MnemoCli.UsageProblem when both are given
     */
    Optional<String> projectKey(Path cwd) {
        if (project != null && projectFromCwd) {
            throw new MnemoCli.UsageProblem("--project and --project-from-cwd both name the project; give one of"
                    + " them (--project DIR|KEY for a fixed project, --project-from-cwd for the repository the"
                    + " server is started in)");
        }
        if (projectFromCwd) {
            return Optional.of(ProjectOption.ofWorkingDirectory(cwd));
        }
        return Optional.ofNullable(project).map(ProjectOption::key);
    }

    /** The real standard output, for the protocol alone; {@code System.out} becomes standard error. */
    private static OutputStream takeStandardOutput() {
        System.out.flush();
        System.setOut(System.err);
        return new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
    }

    /**
     * slf4j-simple reads its settings when the first logger is made, which is later than this: logs to
     * standard error, WARN unless {@code -v} asked for debug.
     */
    private static void configureLogging(boolean verbose) {
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        if (!verbose) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
    }
}
