package dev.mnemo.internal.engine;

import dev.mnemo.AssistantMessage;
import dev.mnemo.Citations;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.AgentGraph;
import dev.mnemo.MemoryAdmin;
import dev.mnemo.MessageHistory;
import dev.mnemo.ThreadGoals;
import dev.mnemo.ThreadLogs;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryTools;
import dev.mnemo.ThreadInfo;
import dev.mnemo.RolloutSources;
import dev.mnemo.SessionContext;
import dev.mnemo.SessionRecorder;
import dev.mnemo.StartupTask;
import dev.mnemo.StrippedText;
import dev.mnemo.ThreadRegistry;
import dev.mnemo.internal.cite.CitationUsage;
import dev.mnemo.internal.consolidate.Forgetting;
import dev.mnemo.internal.events.BackgroundOperations;
import dev.mnemo.internal.extract.ThreadRollouts;
import dev.mnemo.internal.history.EngineHistory;
import dev.mnemo.internal.history.HistoryFile;
import dev.mnemo.internal.history.QueuedHistory;
import dev.mnemo.internal.redact.DefaultSecretRedactor;
import dev.mnemo.internal.read.DeveloperInstructions;
import dev.mnemo.internal.rollout.JsonlSessionRecorder;
import dev.mnemo.internal.tools.ToolCallFacts;
import dev.mnemo.internal.tools.LocalMemoryTools;
import dev.mnemo.spi.GoalStore;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.RolloutSource;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.llm.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine: wires the store, workspace, pipeline and read path built by {@link EngineBuilder}, and
 * answers the public surface. Each concern lives in its own class and the engine delegates:
 * {@link EngineForgetting}, the state layer ({@link EngineStateLayer}), {@link EngineConversations},
 * the read path ({@link EngineReadPath}) and the {@link PipelineSchedule}. The engine keeps what
 * ties them together: its worker id, whether it is open, and the order in which it closes.
 */
final class DefaultMemoryEngine implements MemoryEngine {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultMemoryEngine.class);

    final EngineParts parts;
    /** Set by {@link #workerId()} on first use; null while this engine has named itself to no job. */
    private volatile String workerId;
    final SafeListener listener;
    /** The background runs and the memory operations of the pipeline and of forgets, as the listeners hear them. */
    final BackgroundOperations operations;
    final List<RolloutSource> sources;
    private final ExecutorService executor;
    private final ExecutorService workers;
    private final boolean ownsExecutor;
    private final StoreThreadRegistry threads;
    private final ConversationNotes notes;
    final ThreadRollouts rollouts;
    private final MemoryAdmin admin;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Forgetting: the workspace's part of a forget, and whether serving memory waits for one. */
    private final EngineForgetting forgets;
    /** The state layer: message history, goals, thread logs, the spawn graph. */
    final EngineStateLayer state;
    /** The conversations: sessions opened, shared, swept and closed. */
    final EngineConversations conversations;
    /** The read path: developer instructions and memory tools. */
    private final EngineReadPath reads;
    /** The pipeline schedule: startup tasks, Phase 1 and Phase 2 runs, jobs released at close. */
    final PipelineSchedule schedule;

    DefaultMemoryEngine(EngineParts parts) {
        this.parts = parts;
        // 1. The pools, unless the application gave an executor.
        this.ownsExecutor = parts.executor() == null;
        this.executor = ownsExecutor ? EnginePools.startupPool(EnginePools.IDLE_THREAD_KEEP_ALIVE) : parts.executor();
        this.workers = ownsExecutor ? EnginePools.workers() : parts.executor();
        // 2. The thread logs, and the listeners they feed.
        EngineLogs logs = EngineLogs.open(parts);
        List<MemoryEventListener> allListeners = new ArrayList<>(parts.listeners());
        allListeners.addAll(logs.listeners(parts.wallClock(), parts.store(), parts.consolidationModel() == null
                && parts.consolidationAgent() == null ? Optional.of("no consolidation model or agent is configured"
                        + " (MemoryEngine.builder().model(..), .consolidationModel(..) or .consolidationAgent(..))")
                : Optional.empty()));
        this.listener = new SafeListener(List.copyOf(allListeners));
        this.operations = new BackgroundOperations(listener, parts.storeLabel(), parts.wallClock());
        // 3. Forgetting, the state layer, and the registry that tells them of forgotten and deleted threads.
        this.notes = new ConversationNotes(parts, this::localTools, operations);
        this.forgets = new EngineForgetting(new Forgetting(parts.store(), parts.workspace(), parts.clock(),
                this::workerId), notes, executor, operations);
        this.state = new EngineStateLayer(parts.store(), logs, queuedHistory(), parts.wallClock());
        this.threads = new StoreThreadRegistry(parts.store(), parts.clock(), parts.sessionStore(),
                new StoreThreadRegistry.Hooks(forgets::forgetNow, state::deleteThreadState, state::forgetThreadLogs,
                        state::journal));
        // 4. The recorder, the read path, and the sources the pipeline reads.
        OpenRecordings recordings = new OpenRecordings(new JsonlSessionRecorder(parts.sessionStore(), parts.store(),
                parts.config(), parts.clock(), threadId -> forgets.forgetAfterPollution(threadId, threads)),
                this::requireOpen, state::recordInput);
        this.rollouts = new ThreadRollouts(parts.sessionStore(), redactor(), parts.home());
        this.reads = new EngineReadPath(parts, notes, forgets, this::redactor, listener);
        List<RolloutSource> allSources = new ArrayList<>();
        allSources.add(RolloutSources.codex(parts.home().resolve("sessions")));
        allSources.addAll(parts.rolloutSources());
        this.sources = List.copyOf(allSources);
        // 5. The pipeline schedule, the admin, the conversations.
        this.schedule = new PipelineSchedule(new PipelineSchedule.Collaborators(parts, listener, sources, rollouts,
                redactor(), forgets.forgetting(), executor, workers, this::workerId, state::goalOf,
                this::requireOpen, operations));
        this.admin = new EngineAdmin(this);
        this.conversations = new EngineConversations(this, recordings, new OpenConversations(
                parts.conversationIdleTimeout(), parts.maxOpenConversations(), workers));
        LOG.debug("memory engine ready: home {}, memory root {}", parts.home(), parts.memoryRoot());
    }

    /**
     * The owner this engine's job claims name, {@code mnemo-<pid>-<8 hex digits>}, made on first use:
     * an engine that never claims a job (one that only reads, such as {@code mnemo status}) does not
     * look up its process, several milliseconds of a cold start, and has no jobs to release when it
     * closes. ProcessHandle and ThreadLocalRandom rather than the management beans and UUID's
     * SecureRandom: the same 32 random bits without loading JMX or seeding a secure generator.
     */
    String workerId() {
        String id = workerId;
        if (id == null) {
            synchronized (this) {
                id = workerId;
                if (id == null) {
                    String random = Integer.toHexString(ThreadLocalRandom.current().nextInt());
                    id = "mnemo-" + ProcessHandle.current().pid() + "-" + "00000000".substring(random.length()) + random;
                    workerId = id;
                    LOG.debug("memory engine for {} is worker {}", parts.home(), id);
                }
            }
        }
        return id;
    }

    /**
     * The message history: the store's, else {@code history.jsonl}. A recorded session's appends are
     * written off the caller's thread by the process's one history writer; an engine the application
     * gave an executor starts no thread of its own and submits it nothing it did not ask for, so its
     * appends are written on the caller's thread, as before the queue.
     */
    private QueuedHistory queuedHistory() {
        EngineHistory history = new EngineHistory(parts.store().messageHistory()
                .orElseGet(() -> new HistoryFile(parts.home())), parts.history(), redactor(), parts.clock());
        return new QueuedHistory(history, ownsExecutor ? QueuedHistory.sharedWriter() : Runnable::run);
    }

    SecretRedactor redactor() {
        return parts.redactor() != null ? parts.redactor() : new DefaultSecretRedactor();
    }

    @Override
    public MemorySession openSession(SessionContext session) {
        Objects.requireNonNull(session, "session");
        requireOpen();
        return conversations.openOwned(session);
    }

    @Override
    public MemorySession conversation(String conversationId) {
        Objects.requireNonNull(conversationId, "conversationId");
        requireOpen();
        return conversations.shared(conversationId);
    }

    @Override
    public MemorySession conversation(SessionContext session) {
        Objects.requireNonNull(session, "session");
        requireOpen();
        return conversations.shared(session);
    }

    /**
     * Closes the open session first (an unfinished streamed answer records what was shown, a last
     * line), then marks the conversation ended, after that line; an engine already closed has no
     * store to mark it in, and a read-only one marks nothing.
     */
    @Override
    public boolean closeConversation(String conversationId) {
        Objects.requireNonNull(conversationId, "conversationId");
        boolean wasOpen = conversations.close(conversationId);
        if (!closed.get() && !parts.readOnly()) {
            endConversation(conversationId);
        }
        return wasOpen;
    }

    /** The conversation is finished ({@link MemorySession#end()}): see {@link StoreThreadRegistry#markEnded}. */
    boolean endConversation(String threadId) {
        requireOpen();
        return threads.markEnded(threadId);
    }

    String instructionsForTools() {
        return instructionsForTools(Optional.empty());
    }

    String instructionsForTools(Optional<String> projectKey) {
        requireOpen();
        return reads.instructionsForTools(projectKey);
    }

    /** The instructions for a session's tools with the files they inject, for the turn's receipt. */
    DeveloperInstructions.Built builtForTools(Optional<String> projectKey) {
        requireOpen();
        return reads.built(projectKey, true);
    }

    /**
     * Takes an answer: counts what it cited, tells the listeners which conversation cited it, and
     * logs its receipt (what the turn was given and read, and what it cited) in the conversation's
     * thread log.
     *
     * @param injected what the instructions the turn used injected
     * @param reads the memory tool calls of the turn
     */
    AssistantMessage answer(String threadId, String visibleText, List<String> bodies,
            List<MemoryReceipt.InjectedFile> injected, List<MemoryReceipt.ToolRead> reads) {
        AssistantMessage counted = CitationUsage.count(visibleText, bodies,
                ids -> parts.store().recordUsage(ids, parts.clock().instant()));
        counted.citation().ifPresent(citation -> listener.memoriesCited(threadId,
                CitationUsage.usageIds(citation), counted.usageRecorded()));
        MemoryReceipt receipt = new MemoryReceipt(threadId, injected, reads,
                CitationUsage.forReceipt(counted.citation()));
        logReceipt(receipt);
        return new AssistantMessage(counted.visibleText(), counted.citation(), counted.usageRecorded(), receipt);
    }

    /** Logs a turn's receipt in its conversation's thread log (when the engine keeps thread logs). */
    void logReceipt(MemoryReceipt receipt) {
        if (!receipt.threadId().isBlank()) {
            state.receipt(receipt);
        }
    }

    /** What a search target in a receipt may hold: redacted, at most this many characters. */
    static final int RECEIPT_TARGET_CHARS = 200;

    /** A memory tool call as a receipt names it: paths as given, a search's queries redacted; no content. */
    MemoryReceipt.ToolRead receiptRead(EngineReadPath.ReadingTools tools, ToolCallFacts call) {
        String target = call.queries().isEmpty() ? call.target() : redactor().redact(call.target());
        target = tools.scrub(target);
        if (target.length() > RECEIPT_TARGET_CHARS) {
            int end = RECEIPT_TARGET_CHARS;
            if (Character.isHighSurrogate(target.charAt(end - 1))) {
                end--;
            }
            target = target.substring(0, end);
        }
        return new MemoryReceipt.ToolRead(call.tool(), target, call.bytes(), call.failed());
    }

    /** Submits the pipeline, coalesced with a run already queued ({@link StartupQueue}). */
    @Override
    public StartupTask startStartupTask(SessionContext session) {
        Objects.requireNonNull(session, "session");
        requireOpen();
        return schedule.submit(session);
    }

    @Override
    public String buildDeveloperInstructions() {
        requireOpen();
        return reads.developerInstructions(Optional.empty());
    }

    @Override
    public String buildToolInstructions() {
        return instructionsForTools();
    }

    @Override
    public String buildDeveloperInstructions(String projectKey) {
        requireOpen();
        Objects.requireNonNull(projectKey, "projectKey");
        return reads.developerInstructions(Optional.of(projectKey));
    }

    @Override
    public String buildToolInstructions(String projectKey) {
        return instructionsForTools(Optional.of(Objects.requireNonNull(projectKey, "projectKey")));
    }

    @Override
    public AssistantMessage processAssistantMessage(String threadId, String text) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(text, "text");
        requireOpen();
        StrippedText stripped = Citations.strip(text);
        return answer(threadId, stripped.visibleText(), stripped.bodies(), List.of(), List.of());
    }

    @Override
    public ThreadRegistry threads() {
        return threads;
    }

    @Override
    public SessionRecorder sessions() {
        return conversations.recorder();
    }

    /** The memory tools, made on first use ({@link EngineReadPath#tools()}). */
    @Override
    public MemoryTools tools() {
        return reads.tools();
    }

    /** The local tools, made on first use: what approving a note writes with. */
    LocalMemoryTools localTools() {
        return reads.localTools();
    }

    /** The memory tools of one recorded conversation, in its project ({@link EngineReadPath#toolsFor}). */
    EngineReadPath.ReadingTools toolsFor(Optional<String> project, String threadId, BooleanSupplier externalContext) {
        return reads.toolsFor(project, threadId, externalContext);
    }

    /** Whether the store marks the thread polluted (it saw external context). */
    boolean isPolluted(String threadId) {
        return parts.store().thread(threadId).map(ThreadInfo::memoryMode).filter(MemoryMode.POLLUTED::equals)
                .isPresent();
    }

    /** Forgetting, and the delete operations the listeners hear of. */
    EngineForgetting forgets() {
        return forgets;
    }

    /** The note rules: rejections, holding for approval, forgetting with the conversation. */
    ConversationNotes notes() {
        return notes;
    }

    @Override
    public MessageHistory messageHistory() {
        return state.messageHistory();
    }

    @Override
    public AgentGraph agentGraph() {
        return state.agentGraph();
    }

    @Override
    public ThreadLogs threadLogs() {
        return state.threadLogs();
    }

    /** The store's goals ({@code goals.sqlite} for SQLite); a store that keeps none throws, saying so. */
    @Override
    public ThreadGoals goals() {
        requireOpen();
        return state.goals();
    }

    /** The store's goals, for charging usage; throws, saying so, when the store keeps none. */
    GoalStore goalStore() {
        requireOpen();
        return state.goals();
    }

    @Override
    public MemoryAdmin admin() {
        return admin;
    }

    @Override
    public TokenCounter tokenCounter() {
        return EngineReadPath.tokenCounter(parts);
    }

    @Override
    public MemoriesConfig config() {
        return parts.config();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // 0. Open conversations stop recording (an unfinished streamed answer keeps what was shown),
        //    then every other session still recording.
        conversations.closeAll();
        // 1. Let running work finish, within a bound; then cancel it. Background forgets get what
        //    is left of the bound.
        long deadline = System.nanoTime() + parts.closeTimeout().toNanos();
        schedule.windDown(parts.closeTimeout());
        forgets.windDown(deadline);
        // 2. Jobs this engine still holds go back to the pool at once, without a retry spent. An
        //    engine that never took a worker id has claimed none.
        String claimedAs = workerId;
        if (claimedAs != null) {
            schedule.releaseJobs(claimedAs);
        }
        // 3. The parts the engine opened itself; the thread logs write what is queued first.
        if (ownsExecutor) {
            executor.shutdownNow();
            workers.shutdownNow();
        }
        state.closeLogs();
        closeOwnedParts();
    }

    private void closeOwnedParts() {
        RuntimeException failure = null;
        if (parts.ownsWorkspace()) {
            try {
                parts.workspace().close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (parts.ownsStore()) {
            try {
                parts.store().close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the memory engine is closed");
        }
    }
}
