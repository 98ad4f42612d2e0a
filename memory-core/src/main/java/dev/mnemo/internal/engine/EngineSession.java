package dev.mnemo.internal.engine;

import dev.mnemo.AnswerStream;
import dev.mnemo.AssistantMessage;
import dev.mnemo.CitationStreamFilter;
import dev.mnemo.Citations;
import dev.mnemo.ConversationBusyException;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import dev.mnemo.RecordedSession;
import dev.mnemo.StartupTask;
import dev.mnemo.StrippedText;
import dev.mnemo.ThreadGoal;
import dev.mnemo.internal.read.DeveloperInstructions;
import dev.mnemo.internal.tools.GoalTools;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.spi.GoalStore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's {@link MemorySession}: a translation of each call into the engine's parts (recorder,
 * tools, instructions, citation counting), in one place, so every adapter records the same way.
 */
final class EngineSession implements MemorySession {

    private static final Logger LOG = LoggerFactory.getLogger(EngineSession.class);

    private final DefaultMemoryEngine engine;
    private final RecordedSession recorded;
    private final StartupTask startupTask;
    /** The project, derived once when the session opened (deriving from a cwd reads the file system). */
    private final Optional<String> project;
    private final boolean goalTools;
    /** The memory tools bound to the project, made on first use. */
    private volatile EngineReadPath.ReadingTools tools;
    /** What the last {@link #developerInstructions()} injected: the given part of the next receipt. */
    private volatile List<MemoryReceipt.InjectedFile> lastInjected = List.of();
    /** The memory tool calls since the last answer: the read part of the next receipt (guarded by itself). */
    private final List<MemoryReceipt.ToolRead> turnReads = new ArrayList<>();
    /** The application reported external context in this session: notes wait for approval from now on. */
    private volatile boolean externalContextSeen;
    private final Set<Stream> unfinished = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean inTurn = new AtomicBoolean();
    /** Opened by {@code conversation(id)}: the engine may close it when idle. */
    private volatile boolean evictable;
    /** When a caller last used the session, by the engine's clock: what idle eviction reads. */
    private volatile Instant lastUsed;
    /** The engine-wide count of uses at the last one: what orders least recently used, ties impossible. */
    private volatile long lastUse;

    /**
     * @param goalTools offer the goal tools: the application enabled them and the session is not
     *     ephemeral (Codex hides them where there is no state to keep a goal in)
     */
    EngineSession(DefaultMemoryEngine engine, RecordedSession recorded, StartupTask startupTask,
            Optional<String> project, boolean goalTools) {
        this.engine = engine;
        this.recorded = recorded;
        this.startupTask = startupTask;
        this.project = project;
        this.goalTools = goalTools;
        touch();
    }

    /** Marks a session that {@code conversation(id)} opened: the engine may close it when idle. */
    EngineSession evictable() {
        evictable = true;
        return this;
    }

    boolean isEvictable() {
        return evictable;
    }

    /** Marks the session as used now. */
    void touch() {
        lastUsed = engine.conversations.now();
        lastUse = engine.conversations.nextUse();
    }

    Instant lastUsed() {
        return lastUsed;
    }

    long lastUse() {
        return lastUse;
    }

    /** In a turn, or an answer stream is unfinished: eviction must leave it alone. */
    boolean busy() {
        return inTurn.get() || !unfinished.isEmpty();
    }

    @Override
    public String threadId() {
        return recorded.threadId();
    }

    @Override
    public Optional<String> project() {
        return project;
    }

    @Override
    public StartupTask startupTask() {
        return startupTask;
    }

    @Override
    public String developerInstructions() {
        touch();
        DeveloperInstructions.Built built = engine.builtForTools(project);
        lastInjected = built.injected();
        return built.text();
    }

    @Override
    public Turn beginTurn() {
        requireOpen();
        if (!inTurn.compareAndSet(false, true)) {
            throw new ConversationBusyException(threadId());
        }
        touch();
        AtomicBoolean ended = new AtomicBoolean();
        return () -> {
            if (ended.compareAndSet(false, true)) {
                touch();
                inTurn.set(false);
            }
        };
    }

    /** The memory tools, then the goal tools when the application enabled them. */
    @Override
    public List<ToolSpec> toolSpecs() {
        if (!goalTools) {
            return tools().specs();
        }
        List<ToolSpec> specs = new java.util.ArrayList<>(tools().specs());
        specs.addAll(GoalTools.specs());
        return List.copyOf(specs);
    }

    @Override
    public Optional<ThreadGoal> goal() {
        touch();
        return engine.goals().get(threadId());
    }

    @Override
    public ThreadGoal setGoal(String objective, OptionalLong tokenBudget) {
        touch();
        return engine.goals().set(threadId(), objective, tokenBudget);
    }

    /**
     * Codex's goal accounting: tokens are input minus cached input plus output; the charge is made
     * against the goal id read just before, so a goal replaced meanwhile is not charged.
     */
    @Override
    public Optional<ThreadGoal> chargeGoal(TokenUsage usage, Duration elapsed) {
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(elapsed, "elapsed");
        touch();
        GoalStore goals = engine.goalStore();
        Optional<ThreadGoal> goal = goals.get(threadId());
        if (goal.isEmpty()) {
            return Optional.empty();
        }
        long tokens = Math.max(0, usage.inputTokens() - usage.cachedInputTokens()) + usage.outputTokens();
        if (!goals.accountUsage(threadId(), goal.get().goalId(), tokens, elapsed)) {
            return Optional.empty();
        }
        return goals.get(threadId());
    }

    /**
     * The engine's tools, bound to this session's project when it has one and to this
     * conversation: its notes name it, and wait for approval once it has seen external context.
     */
    private EngineReadPath.ReadingTools tools() {
        EngineReadPath.ReadingTools made = tools;
        if (made == null) {
            made = engine.toolsFor(project, threadId(), this::sawExternalContext);
            tools = made;
        }
        return made;
    }

    /**
     * Whether this conversation has seen external context: reported in this session, or marked
     * polluted in the store ({@code disable_on_external_context}, possibly in an earlier session).
     */
    private boolean sawExternalContext() {
        return externalContextSeen || engine.isPolluted(threadId());
    }

    @Override
    public String callTool(String callId, String name, String argumentsJson) {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(argumentsJson, "argumentsJson");
        touch();
        synchronized (recorded) {
            requireOpen();
            recorded.toolCall(callId, name, argumentsJson);
        }
        String output;
        if (goalTools && GoalTools.NAMES.contains(name)) {
            output = new GoalTools(engine.goals(), threadId()).call(name, argumentsJson);
        } else {
            EngineReadPath.ReadingTools memoryTools = tools();
            EngineReadPath.ReadingTools.Call call = memoryTools.callWithFacts(name, argumentsJson);
            output = call.output();
            if (call.facts().isRead()) {
                MemoryReceipt.ToolRead read = engine.receiptRead(memoryTools, call.facts());
                synchronized (turnReads) {
                    turnReads.add(read);
                }
            }
        }
        synchronized (recorded) {
            requireOpen();
            recorded.toolOutput(callId, output);
        }
        return output;
    }

    @Override
    public void userMessage(String text) {
        Objects.requireNonNull(text, "text");
        touch();
        synchronized (recorded) {
            requireOpen();
            recorded.userMessage(text);
        }
    }

    @Override
    public AssistantMessage assistantMessage(String rawText) {
        Objects.requireNonNull(rawText, "rawText");
        StrippedText stripped = Citations.strip(rawText);
        return recordAndCount(stripped.visibleText(), stripped.bodies());
    }

    @Override
    public AnswerStream streamAnswer() {
        requireOpen();
        touch();
        Stream stream = new Stream();
        unfinished.add(stream);
        return stream;
    }

    @Override
    public void externalContext(String kind) {
        Objects.requireNonNull(kind, "kind");
        externalContextSeen = true;
        synchronized (recorded) {
            requireOpen();
            recorded.externalContext(kind);
        }
    }

    /** Marks the conversation finished in the store; records nothing and leaves the session open. */
    @Override
    public void end() {
        touch();
        engine.endConversation(threadId());
    }

    @Override
    public void close() {
        if (markClosed()) {
            finishClose();
        }
    }

    /** Refuses every further use from now on; true for the call that closed it. */
    boolean markClosed() {
        return closed.compareAndSet(false, true);
    }

    /** After {@link #markClosed()}: abandons unfinished streams and ends the recording (the slow part). */
    void finishClose() {
        try {
            for (Stream stream : List.copyOf(unfinished)) {
                stream.abandon();
            }
        } finally {
            synchronized (recorded) {
                recorded.close();
            }
            engine.conversations.closed(this);
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    /**
     * Records the visible text first, so a failure to record counts nothing and the caller may
     * retry; then counts the citation.
     */
    private AssistantMessage recordAndCount(String visibleText, List<String> bodies) {
        touch();
        synchronized (recorded) {
            requireOpen();
            recorded.assistantMessage(visibleText);
        }
        return engine.answer(threadId(), visibleText, bodies, lastInjected, takeReads());
    }

    /** The memory tool calls since the last answer; the next turn starts with none. */
    private List<MemoryReceipt.ToolRead> takeReads() {
        synchronized (turnReads) {
            List<MemoryReceipt.ToolRead> reads = List.copyOf(turnReads);
            turnReads.clear();
            return reads;
        }
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("memory session " + threadId() + " is closed");
        }
    }

    /** One streamed answer: the filter, what has been shown, and whether it ended. */
    private final class Stream implements AnswerStream {
        private final CitationStreamFilter filter = Citations.streamFilter();
        private final StringBuilder shown = new StringBuilder();
        private AssistantMessage finished;

        @Override
        public synchronized String push(String chunk) {
            Objects.requireNonNull(chunk, "chunk");
            if (finished != null) {
                throw new IllegalStateException("the answer stream of session " + threadId() + " has finished");
            }
            String visible = filter.push(chunk);
            shown.append(visible);
            return visible;
        }

        @Override
        public synchronized AssistantMessage finish() {
            if (finished == null) {
                shown.append(filter.finish());
                unfinished.remove(this);
                finished = recordAndCount(shown.toString(), filter.bodies());
            }
            return finished;
        }

        /** The session closes before the answer ended: keep what the user saw, count nothing. */
        synchronized void abandon() {
            if (finished != null) {
                return;
            }
            unfinished.remove(this);
            MemoryReceipt receipt = new MemoryReceipt(threadId(), lastInjected, takeReads(), List.of());
            finished = new AssistantMessage(shown.toString(), Optional.empty(), 0, receipt);
            engine.logReceipt(receipt);
            LOG.info("Session {} closed during a streamed answer; recording the {} chars shown, counting no citation",
                    threadId(), shown.length());
            synchronized (recorded) {
                recorded.assistantMessage(shown.toString());
            }
        }
    }
}
