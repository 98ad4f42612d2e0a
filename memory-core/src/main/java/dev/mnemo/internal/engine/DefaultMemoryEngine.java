package dev.mnemo.internal.engine;

import dev.mnemo.AssistantMessage;
import dev.mnemo.Citations;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.AgentGraph;
import dev.mnemo.MemoryAdmin;
import dev.mnemo.MessageHistory;
import dev.mnemo.ThreadGoal;
import dev.mnemo.ThreadGoals;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryTools;
import dev.mnemo.ThreadInfo;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.RolloutSources;
import dev.mnemo.SessionContext;
import dev.mnemo.SessionRecorder;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupTask;
import dev.mnemo.StrippedText;
import dev.mnemo.ThreadRegistry;
import dev.mnemo.internal.agent.ToolLoopConsolidationAgent;
import dev.mnemo.internal.cite.CitationUsage;
import dev.mnemo.internal.consolidate.Forgetting;
import dev.mnemo.internal.consolidate.Phase2Runner;
import dev.mnemo.internal.extract.Phase1Runner;
import dev.mnemo.internal.extract.ThreadRollouts;
import dev.mnemo.internal.history.EngineHistory;
import dev.mnemo.internal.history.HistoryFile;
import dev.mnemo.internal.read.DeveloperInstructions;
import dev.mnemo.internal.read.ServerPaths;
import dev.mnemo.internal.redact.DefaultSecretRedactor;
import dev.mnemo.internal.rollout.ContextualFragments;
import dev.mnemo.internal.rollout.JsonlSessionRecorder;
import dev.mnemo.internal.startup.StartupRunner;
import dev.mnemo.internal.tools.LocalMemoryTools;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.GoalStore;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.RolloutSource;
import dev.mnemo.spi.SecretRedactor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The engine: wires the store, workspace, pipeline and read path built by {@link EngineBuilder}. */
final class DefaultMemoryEngine implements MemoryEngine {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultMemoryEngine.class);

    final EngineParts parts;
    /** Set by {@link #workerId()} on first use; null while this engine has named itself to no job. */
    private volatile String workerId;
    final SafeListener listener;
    final StartupRunner startup;
    final Phase1Runner phase1;
    final Phase2Runner phase2;
    final List<RolloutSource> sources;
    private final ExecutorService executor;
    private final ExecutorService workers;
    private final boolean ownsExecutor;
    private final StoreThreadRegistry threads;
    private final AgentGraph agentGraph;
    private final EngineLogs logs;
    private final Forgetting forgetting;
    private final ConversationNotes notes;
    private final OpenRecordings sessions;
    private final EngineHistory history;
    final ThreadRollouts rollouts;
    /** Built by {@link #tools()} on first use: most engines build instructions and never call a tool. */
    private final AtomicReference<MemoryTools> tools = new AtomicReference<>();
    /** The tools before the refresh and path scrubbing: what approving a note writes with. */
    private final AtomicReference<LocalMemoryTools> localTools = new AtomicReference<>();
    private final DeveloperInstructions instructions;
    private final MemoryAdmin admin;
    private final StartupQueue startups;
    private final OpenConversations conversations;
    private final AtomicLong uses = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Threads whose forget waits for the background pass (for a store that records no pending forgets). */
    private final Set<String> awaitingForgetPass = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean forgetPassQueued = new AtomicBoolean();

    /**
     * Set when a forget of this engine could not drop its text from the files at once; while the
     * store still lists a pending forget, the instructions carry no memory (the summary may hold the
     * forgotten text). Cleared at the first build that finds none, so the read path asks the store
     * only while a forget waits.
     */
    private volatile boolean forgetPending;

    DefaultMemoryEngine(EngineParts parts) {
        this.parts = parts;
        this.ownsExecutor = parts.executor() == null;
        this.executor = ownsExecutor ? EnginePools.startupPool(EnginePools.IDLE_THREAD_KEEP_ALIVE) : parts.executor();
        this.workers = ownsExecutor ? EnginePools.workers() : parts.executor();
        this.logs = EngineLogs.open(parts);
        List<MemoryEventListener> allListeners = new ArrayList<>(parts.listeners());
        allListeners.addAll(logs.listeners(parts.wallClock()));
        this.listener = new SafeListener(List.copyOf(allListeners));
        this.notes = new ConversationNotes(parts, this::localTools);
        this.forgetting = new Forgetting(parts.store(), parts.workspace(), parts.clock(), this::workerId);
        this.history = new EngineHistory(parts.store().messageHistory().orElseGet(() -> new HistoryFile(parts.home())),
                parts.history(), redactor(), parts.clock());
        this.threads = new StoreThreadRegistry(parts.store(), parts.clock(), parts.sessionStore(),
                new StoreThreadRegistry.Hooks(this::forgetNow, this::deleteThreadState, logs::forgetThread,
                        (threadId, message) -> logs.log(new ThreadLogEntry(threadId, parts.wallClock().instant(), "INFO",
                                "mnemo::threads", message))));
        this.agentGraph = new StoreAgentGraph(parts.store());
        this.sessions = new OpenRecordings(new JsonlSessionRecorder(parts.sessionStore(), parts.store(),
                parts.config(), parts.clock(), this::forgetAfterPollution), this::requireOpen, this::recordInput);
        this.rollouts = new ThreadRollouts(parts.sessionStore(), redactor(), parts.home());
        this.instructions = new DeveloperInstructions(parts.memoryRoot(), parts.config());
        List<RolloutSource> allSources = new ArrayList<>();
        allSources.add(RolloutSources.codex(parts.home().resolve("sessions")));
        allSources.addAll(parts.rolloutSources());
        this.sources = List.copyOf(allSources);
        this.phase1 = phase1Runner(parts);
        this.phase2 = phase2Runner(parts);
        this.startup = new StartupRunner(new StartupRunner.Dependencies(parts.memoryRoot(), parts.config(), parts.store(),
                sources, parts.extractionModel() != null ? parts.extractionModel() : parts.consolidationModel(),
                phase1 == null ? null : phase1::run, phase2 == null ? null : phase2::run, parts.clock(), parts.wallClock(),
                listener, this::threadsInKeptHistory));
        this.startups = new StartupQueue(startup, executor);
        this.admin = new EngineAdmin(this);
        this.conversations = new OpenConversations(parts.conversationIdleTimeout(), parts.maxOpenConversations(),
                workers);
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

    private Phase1Runner phase1Runner(EngineParts parts) {
        if (parts.extractionModel() == null) {
            return null;
        }
        LanguageModel model = ReportingModel.of(parts.extractionModel(), MemoryEventListener.PHASE1, listener);
        return new Phase1Runner(new Phase1Runner.Dependencies(parts.store(), model, rollouts,
                redactor(), parts.config(), parts.clock(), workerId(), listener, this::goalOf), workers);
    }

    private Phase2Runner phase2Runner(EngineParts parts) {
        ConsolidationAgent agent = parts.consolidationAgent();
        if (agent == null && parts.consolidationModel() != null) {
            agent = new ToolLoopConsolidationAgent(
                    ReportingModel.of(parts.consolidationModel(), MemoryEventListener.PHASE2, listener), parts.clock(),
                    listener);
        }
        if (agent == null) {
            return null;
        }
        return new Phase2Runner(new Phase2Runner.Dependencies(parts.store(), parts.workspace(), agent, parts.config(),
                parts.clock(), parts.wallClock(), workerId(), parts.config().consolidationModel().orElse(""), listener),
                workers, forgetting);
    }

    /**
     * The memory tools, reading the workspace's files after it has refreshed them (the tools tell the
     * workspace of each note they add). Their results go to a model, possibly a hosted one: paths of
     * this machine are taken out ({@link ServerPaths}).
     */
    /** The tools that read the folder, which a forget still in progress closes as it empties the instructions. */
    private static final Set<String> READING_TOOLS = Set.of(MemoryTools.LIST, MemoryTools.READ, MemoryTools.SEARCH);
    /** What they answer meanwhile, in the tools' error form. */
    static final String FORGET_IN_PROGRESS = "{\"error\":\"the memory folder is being updated after a forget;"
            + " it can be read again in a moment\"}";

    private MemoryTools refreshing(MemoryTools local) {
        ServerPaths serverPaths = new ServerPaths(parts.memoryRoot());
        return new MemoryTools() {
            @Override
            public List<ToolSpec> specs() {
                return local.specs();
            }

            @Override
            public String call(String toolName, String argumentsJson) {
                if (READING_TOOLS.contains(toolName) && servingPausedForAForget()) {
                    return FORGET_IN_PROGRESS; // the files may still hold the forgotten text, as the instructions
                }
                parts.workspace().refresh();
                return serverPaths.scrub(local.call(toolName, argumentsJson));
            }

            @Override
            public MemoryTools inProject(String projectKey) {
                return refreshing(local.inProject(projectKey));
            }
        };
    }

    SecretRedactor redactor() {
        return parts.redactor() != null ? parts.redactor() : new DefaultSecretRedactor();
    }

    @Override
    public MemorySession openSession(SessionContext session) {
        Objects.requireNonNull(session, "session");
        requireOpen();
        return conversations.openOwned(session, this::newSession);
    }

    @Override
    public MemorySession conversation(String conversationId) {
        Objects.requireNonNull(conversationId, "conversationId");
        requireOpen();
        EngineSession session = conversations.shared(conversationId, this::newSession);
        conversations.maybeSweep(now(), session);
        return session;
    }

    @Override
    public MemorySession conversation(SessionContext session) {
        Objects.requireNonNull(session, "session");
        requireOpen();
        EngineSession shared = conversations.shared(session, this::newSession);
        conversations.maybeSweep(now(), shared);
        return shared;
    }

    @Override
    public boolean closeConversation(String conversationId) {
        Objects.requireNonNull(conversationId, "conversationId");
        return conversations.close(conversationId);
    }

    /** Closes conversations idle past the timeout or beyond the bound; returns how many. */
    int sweepConversations() {
        return conversations.sweep(now());
    }

    int openConversationCount() {
        return conversations.size();
    }

    Instant now() {
        return parts.clock().instant();
    }

    /** The next number in the engine's count of session uses. */
    long nextUse() {
        return uses.incrementAndGet();
    }

    /**
     * The project first (derived from a working folder once, then named), recording next (a
     * failure leaves nothing running), then the startup task.
     */
    private EngineSession newSession(SessionContext requested) {
        Optional<String> project = requested.project();
        SessionContext session = project.map(requested::inProject).orElse(requested);
        RecordedSession recorded = sessions.start(session);
        StartupTask task;
        try {
            task = startStartupTask(session);
        } catch (RuntimeException e) {
            recorded.close();
            throw e;
        }
        return new EngineSession(this, recorded, task, project, parts.goalTools() && !session.ephemeral());
    }

    /**
     * A thread's memory was forgotten in the store: the workspace drops the consolidations that
     * used it now, so the next instructions, on this server or any other, carry none of its text.
     */
    private void forgetNow(String threadId) {
        notes.forgetConversation(threadId);
        Forgetting.Outcome outcome = forgetting.afterForget(threadId);
        if (outcome == Forgetting.Outcome.DEFERRED_TO_RUNNING_CONSOLIDATION
                || outcome == Forgetting.Outcome.DEFERRED_TO_NEXT_CONSOLIDATION) {
            forgetPending = true; // the files still hold its text: instructions carry no memory until it is done
        }
        LOG.debug("forget of thread {} in the workspace: {}", threadId, outcome);
    }

    /** Whether a forget is still waiting for the lock (asked of the store only after one was deferred). */
    private boolean servingPausedForAForget() {
        if (!forgetPending) {
            return false;
        }
        if (forgetting.pendingOrEmpty().isEmpty()) {
            forgetPending = false;
            return false;
        }
        return true;
    }

    /**
     * The same for a conversation that saw external context, on the request's thread: only the
     * instant part runs here (the store's record of a pending forget; the instructions stop
     * carrying memory), for the thread and each ancestor it pollutes; dropping the history and
     * pruning its objects runs once for all of them on the engine's executor. The request goes on
     * whatever happens; a forget that failed here is completed by the next consolidation first.
     */
    private void forgetAfterPollution(String threadId) {
        try {
            forgetInBackground(threadId);
        } catch (RuntimeException e) {
            LOG.warn("thread {} is polluted, but recording its forget failed; the next consolidation drops "
                    + "its consolidations first", threadId, e);
        }
        try {
            threads.polluteAncestors(threadId, this::forgetInBackground);
        } catch (RuntimeException e) {
            LOG.warn("thread {} is polluted, but marking the threads that spawned it failed", threadId, e);
        }
    }

    /** The threads a kept consolidation used: retention spares their memories (a forget may need them). */
    Set<String> threadsInKeptHistory() {
        Set<String> kept = new TreeSet<>();
        parts.workspace().history().forEach(entry -> kept.addAll(entry.threadIds()));
        return kept;
    }

    /**
     * The instant part of a forget now (its notes go, a pending forget is recorded), the rest in
     * one coalesced pass on the executor.
     */
    private void forgetInBackground(String threadId) {
        notes.forgetConversation(threadId);
        if (!forgetting.recordForget(threadId)) {
            return;
        }
        forgetPending = true;
        awaitingForgetPass.add(threadId);
        if (forgetPassQueued.compareAndSet(false, true)) {
            try {
                executor.execute(this::forgetPass);
            } catch (RejectedExecutionException e) {
                forgetPassQueued.set(false);
                LOG.warn("the executor refused the forget of thread {}; the next consolidation completes it first",
                        threadId);
            }
        }
    }

    /** One pass over every forget recorded since the last: history dropped, objects pruned, once. */
    private void forgetPass() {
        forgetPassQueued.set(false);
        Set<String> known = new TreeSet<>(awaitingForgetPass);
        awaitingForgetPass.removeAll(known);
        try {
            Forgetting.Outcome outcome = forgetting.completePending(known);
            LOG.debug("background forget of thread(s) {}: {}", known, outcome);
        } catch (RuntimeException e) {
            LOG.warn("completing the forget of thread(s) {} failed; the next consolidation completes it first", known,
                    e);
        }
    }

    /**
     * A user message a session recorded goes to the message history too, as Codex's TUI keeps what
     * was typed: only the user's own words (no AGENTS.md, no harness context), redacted by the
     * history. A failure is logged and the conversation goes on, as in Codex.
     */
    private void recordInput(String threadId, String text) {
        if (!ContextualFragments.isRealUserText(text)) {
            return;
        }
        try {
            history.append(threadId, text);
        } catch (RuntimeException e) {
            LOG.warn("could not add a message of thread {} to the message history {}", threadId, history, e);
        }
    }

    /**
     * What a deleted thread leaves outside the state database, removed before its rows (Codex's
     * order, so a failure here leaves the thread to delete again): its lines in the message history
     * and its goal.
     */
    private void deleteThreadState(String threadId) {
        int lines = history.removeSession(threadId);
        if (lines > 0) {
            LOG.info("thread {}: {} line(s) removed from the message history", threadId, lines);
        }
        GoalStore goals;
        try {
            goals = parts.store().goals();
        } catch (UnsupportedOperationException e) {
            return; // a store that keeps no goals holds none of this thread's
        }
        if (goals.delete(threadId)) {
            LOG.info("thread {}: goal deleted", threadId);
        }
    }

    void sessionClosed(EngineSession session) {
        conversations.closed(session);
    }

    String instructionsForTools() {
        return instructionsForTools(Optional.empty());
    }

    String instructionsForTools(Optional<String> projectKey) {
        requireOpen();
        if (servingPausedForAForget()) {
            return "";
        }
        parts.workspace().refresh();
        return instructions.forTools(projectKey);
    }

    /** Counts what an answer cited and tells the listeners which conversation cited it. */
    AssistantMessage countCitations(String threadId, String visibleText, List<String> bodies) {
        AssistantMessage message = CitationUsage.count(visibleText, bodies,
                ids -> parts.store().recordUsage(ids, parts.clock().instant()));
        message.citation().ifPresent(citation -> listener.memoriesCited(threadId,
                CitationUsage.usageIds(citation), message.usageRecorded()));
        return message;
    }

    /** Submits the pipeline, coalesced with a run already queued ({@link StartupQueue}). */
    @Override
    public StartupTask startStartupTask(SessionContext session) {
        Objects.requireNonNull(session, "session");
        requireOpen();
        return startups.submit(session);
    }

    /** What the last finished startup run was skipped for, if it was. */
    Optional<SkipReason> lastStartupSkip() {
        return startups.lastSkip();
    }

    @Override
    public String buildDeveloperInstructions() {
        requireOpen();
        if (servingPausedForAForget()) {
            return "";
        }
        parts.workspace().refresh();
        return instructions.build();
    }

    @Override
    public String buildToolInstructions() {
        return instructionsForTools();
    }

    @Override
    public String buildDeveloperInstructions(String projectKey) {
        requireOpen();
        Objects.requireNonNull(projectKey, "projectKey");
        if (servingPausedForAForget()) {
            return "";
        }
        parts.workspace().refresh();
        return instructions.build(Optional.of(projectKey));
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
        return countCitations(threadId, stripped.visibleText(), stripped.bodies());
    }

    @Override
    public ThreadRegistry threads() {
        return threads;
    }

    @Override
    public SessionRecorder sessions() {
        return sessions;
    }

    /**
     * The memory tools, made on first use. Two threads asking at once may each make a set; they hold
     * no state of their own, and the first one stored is the one every caller gets.
     */
    @Override
    public MemoryTools tools() {
        MemoryTools made = tools.get();
        if (made == null) {
            tools.compareAndSet(null, refreshing(localTools()));
            made = tools.get();
        }
        return made;
    }

    /**
     * The local tools, made on first use; with {@code approval = "ask"} their notes wait in the
     * store for a person ({@link MemoryAdmin#approve}).
     */
    LocalMemoryTools localTools() {
        LocalMemoryTools made = localTools.get();
        if (made == null) {
            localTools.compareAndSet(null, new LocalMemoryTools(parts.memoryRoot(), parts.clock(), redactor(),
                    parts.workspace()::noteAdded, notes));
            made = localTools.get();
        }
        return made;
    }

    /**
     * The memory tools of one recorded conversation, in its project: each note names the
     * conversation, and waits for approval once {@code externalContext} says it saw external context.
     */
    MemoryTools toolsFor(Optional<String> project, String threadId, BooleanSupplier externalContext) {
        LocalMemoryTools bound = localTools().inConversation(threadId, externalContext);
        return refreshing(project.map(bound::inProject).orElse(bound));
    }

    /** Whether the store marks the thread polluted (it saw external context). */
    boolean isPolluted(String threadId) {
        return parts.store().thread(threadId).map(ThreadInfo::memoryMode).filter(MemoryMode.POLLUTED::equals)
                .isPresent();
    }

    /** The note rules: rejections, holding for approval, forgetting with the conversation. */
    ConversationNotes notes() {
        return notes;
    }

    @Override
    public MessageHistory messageHistory() {
        return history;
    }

    @Override
    public AgentGraph agentGraph() {
        return agentGraph;
    }

    @Override
    public ThreadLogs threadLogs() {
        return logs.threadLogs();
    }

    /** The store's goals ({@code goals.sqlite} for SQLite); a store that keeps none throws, saying so. */
    @Override
    public ThreadGoals goals() {
        requireOpen();
        return parts.store().goals();
    }

    /** The thread's goal, for Phase 1's context; none when the store keeps no goals. */
    Optional<ThreadGoal> goalOf(String threadId) {
        try {
            return parts.store().goals().get(threadId);
        } catch (UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /** The store's goals, for charging usage; throws, saying so, when the store keeps none. */
    GoalStore goalStore() {
        requireOpen();
        return parts.store().goals();
    }

    @Override
    public MemoryAdmin admin() {
        return admin;
    }

    @Override
    public MemoriesConfig config() {
        return parts.config();
    }

    boolean hasPhase1() {
        return phase1 != null;
    }

    boolean hasPhase2() {
        return phase2 != null;
    }

    Phase1Report runPhase1(String currentThreadId) {
        requireOpen();
        if (phase1 == null) {
            throw new IllegalStateException("no extraction model: call MemoryEngine.builder().model(..) or "
                    + ".extractionModel(..)");
        }
        return phase1.run(currentThreadId);
    }

    Phase2Report runPhase2() {
        return requirePhase2().run();
    }

    /** Phase 2 past the success cooldown and the retry backoff, never past a live lease. */
    Phase2Report runPhase2Now() {
        return requirePhase2().runNow();
    }

    private Phase2Runner requirePhase2() {
        requireOpen();
        if (phase2 == null) {
            throw new IllegalStateException("no consolidation model or agent: call MemoryEngine.builder().model(..), "
                    + ".consolidationModel(..) or .consolidationAgent(..)");
        }
        return phase2;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // 0. Open conversations stop recording (an unfinished streamed answer keeps what was shown),
        //    then every other session still recording.
        closeConversations();
        sessions.closeAll();
        // 1. Let running work finish, within a bound; then cancel it.
        startups.windDown(parts.closeTimeout());
        // 2. Jobs this engine still holds go back to the pool at once, without a retry spent. An
        //    engine that never took a worker id has claimed none.
        String claimedAs = workerId;
        if (claimedAs != null) {
            releaseJobs(claimedAs);
        }
        // 3. The parts the engine opened itself; the thread logs write what is queued first.
        if (ownsExecutor) {
            executor.shutdownNow();
            workers.shutdownNow();
        }
        closeLogs();
        closeOwnedParts();
    }

    private void releaseJobs(String claimedAs) {
        try {
            int released = parts.store().releaseJobs(claimedAs, "engine closed before the job finished",
                    parts.clock().instant());
            if (released > 0) {
                LOG.info("memory engine closed: released {} unfinished job(s) for retry", released);
            }
        } catch (RuntimeException e) {
            LOG.warn("memory engine closed: could not release its jobs; they are reclaimable after their lease", e);
        }
    }

    private void closeLogs() {
        try {
            logs.close();
        } catch (RuntimeException e) {
            LOG.warn("memory engine closing: the thread logs did not close cleanly", e);
        }
    }

    private void closeConversations() {
        for (EngineSession session : conversations.all()) {
            try {
                session.close();
            } catch (RuntimeException e) {
                LOG.warn("memory engine closing: session {} did not close cleanly", session.threadId(), e);
            }
        }
        conversations.finishPendingCloses(); // idle ones evicted whose close is still queued
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
