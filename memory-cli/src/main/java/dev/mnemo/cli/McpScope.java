package dev.mnemo.cli;

import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The project {@code mnemo mcp} serves, and the memory tools bound to it: the one {@code --project}
 * (or {@code --project-from-cwd}) named, for the whole session; else the project of the client's
 * first {@code file://} root, for a client that declares the {@code roots} capability; else none
 * (global memory only). The tools are {@linkplain MemoryTools#confinedToProject confined} to the
 * project: another project's files only when a call says {@code scope: all}.
 *
 * <p>MCP sends the instructions in the {@code initialize} answer, before a server may ask the
 * client anything, so roots can only scope the tools: the first tool call asks the client for its
 * roots ({@code roots/list}), and every {@code notifications/roots/list_changed} re-scopes from the
 * roots the SDK then lists. A client that does not answer within {@link #ROOTS_TIMEOUT} leaves the
 * tools global until its roots change.
 */
final class McpScope {

    /** How long the server waits for the client's answer to {@code roots/list} (its only request to a client). */
    static final Duration ROOTS_TIMEOUT = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(McpScope.class);

    /** The project and its tools, replaced together. */
    private record Scoped(Optional<String> project, MemoryTools tools) {}

    private final Path memoryRoot;
    private final boolean fixed;
    private Scoped current;
    /** Whether a tool call is asking the client for its roots, or did. */
    private boolean asking;
    /** Whether the roots were asked for and answered (or timed out), or changed: tool calls no longer wait. */
    private boolean rootsKnown;
    /** The calls waiting for the roots, in the order they arrived. */
    private final ArrayDeque<CompletableFuture<Integer>> waiting = new ArrayDeque<>();
    /** How many waiting calls were let go. */
    private int released;
    private long changes;
    private final List<Consumer<Optional<String>>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    private McpScope(Path memoryRoot, Optional<String> project, boolean fixed) {
        this.memoryRoot = memoryRoot;
        this.fixed = fixed;
        this.current = scoped(project);
    }

    /**
     * The scope of a server over {@code memoryRoot}: {@code project} for the whole session when
     * present, else taken from the client's roots.
     */
    static McpScope of(Path memoryRoot, Optional<String> project) {
        return new McpScope(memoryRoot, project, project.isPresent());
    }

    /**
     * Tells {@code listener}, beside those told already, each project the tools are scoped to from
     * now on (empty: global memory only), while the scope changes: it should not block.
     */
    void onChange(Consumer<Optional<String>> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** The project served now, if any. */
    synchronized Optional<String> project() {
        return current.project();
    }

    /** The memory tools of the project served now. */
    synchronized MemoryTools tools() {
        return current.tools();
    }

    /**
     * Before a tool call: the first time, and only without {@code --project}, asks a client that
     * declared the roots capability for its roots and scopes the tools to them. Calls made while
     * the client is being asked wait for its answer (at most {@link #ROOTS_TIMEOUT}, the SDK's
     * timeout of the request), so no call of the first turn is served before its project is known.
     *
     * <p>The waiting calls are not let go all at once: each waits for its own turn, in the order it
     * arrived, and is let go by the call before it as that one leaves (the asking call lets go the
     * first). A client's first turn often sends many calls together; released by one signal, they
     * would all wake, run and answer in the same instant; let go in turn, they reach the tools in the
     * order they arrived. (Answers sent at once are safe anyway: {@link StdioTransport} queues them.)
     * Calls that arrive once the roots are known do not wait at all.
     *
     * @return the call's turn: 0 when it did not wait, else 1 for the first call let go, 2 for the next...
     */
    int beforeToolCall(McpSyncServerExchange exchange) {
        CompletableFuture<Integer> turn;
        long seen = 0;
        synchronized (this) {
            if (fixed || rootsKnown) {
                return 0;
            }
            if (asking) {
                turn = new CompletableFuture<>();
                waiting.add(turn);
            } else {
                asking = true;
                turn = null;
                seen = changes;
            }
        }
        int position = 0;
        try {
            if (turn == null) {
                askForRoots(exchange, seen);
            } else {
                position = turn.join(); // completed by the call before this one; the first ask is bounded
            }
        } finally {
            letNextGo(turn == null);
        }
        return position;
    }

    /** Lets the longest-waiting call go; {@code rootsAnswered} marks the end of the asking call. */
    private void letNextGo(boolean rootsAnswered) {
        CompletableFuture<Integer> next;
        int position;
        synchronized (this) {
            if (rootsAnswered) {
                rootsKnown = true;
            }
            next = waiting.poll();
            position = next == null ? released : ++released;
        }
        if (next != null) {
            next.complete(position);
        }
    }

    private void askForRoots(McpSyncServerExchange exchange, long seen) {
        McpSchema.ClientCapabilities capabilities = exchange.getClientCapabilities();
        if (capabilities == null || capabilities.roots() == null) {
            return;
        }
        List<McpSchema.Root> roots;
        try {
            roots = exchange.listRoots().roots();
        } catch (RuntimeException e) {
            LOG.warn("The MCP client declared roots but did not list them ({}); the memory tools stay global",
                    e.getMessage());
            return;
        }
        synchronized (this) {
            if (changes == seen) { // else a roots/list_changed answered meanwhile, with newer roots
                apply(roots);
            }
        }
    }

    /** The client's roots changed and the SDK listed them anew: re-scopes, unless {@code --project} fixed the project. */
    synchronized void rootsChanged(List<McpSchema.Root> roots) {
        if (fixed) {
            return;
        }
        if (!asking) {
            asking = true;
            rootsKnown = true;
        }
        changes++;
        apply(roots);
    }

    /** The project of the first {@code file://} root ({@link ProjectKeys#forDirectory}), if any. */
    static Optional<String> projectOf(List<McpSchema.Root> roots) {
        for (McpSchema.Root root : roots == null ? List.<McpSchema.Root>of() : roots) {
            if (root.uri() == null || !root.uri().regionMatches(true, 0, "file:", 0, "file:".length())) {
                continue;
            }
            try {
                return Optional.of(ProjectKeys.forDirectory(Path.of(URI.create(root.uri()))));
            } catch (IllegalArgumentException | FileSystemNotFoundException e) {
                LOG.warn("Ignoring the MCP root {}: not a local folder ({})", root.uri(), e.getMessage());
            }
        }
        return Optional.empty();
    }

    private void apply(List<McpSchema.Root> roots) {
        Optional<String> project = projectOf(roots);
        if (!project.equals(current.project())) {
            LOG.info("The memory tools now serve {}", project.map(key -> "the project " + key + " (from the client's"
                    + " roots) and the global memory").orElse("the global memory (no file:// root)"));
            current = scoped(project);
            listeners.forEach(listener -> listener.accept(project));
        }
    }

    private Scoped scoped(Optional<String> project) {
        MemoryTools folder = MemoryTools.forFolder(memoryRoot);
        return new Scoped(project, project.map(folder::confinedToProject).orElse(folder));
    }
}
