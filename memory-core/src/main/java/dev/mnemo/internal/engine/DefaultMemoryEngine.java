package dev.mnemo.internal.engine;

import dev.mnemo.AssistantMessage;
import dev.mnemo.Consolidation;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryAdmin;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStatus;
import dev.mnemo.MemoryTools;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.SessionRecorder;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupTask;
import dev.mnemo.ThreadRegistry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The engine: wires the store, workspace, pipeline and read path built by {@link EngineBuilder}. */
final class DefaultMemoryEngine implements MemoryEngine {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultMemoryEngine.class);

    private final EngineParts parts;
    private final ThreadRegistry threads;
    private final MemoryAdmin admin = new Admin();
    private final AtomicReference<SkipReason> lastStartupSkip = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    DefaultMemoryEngine(EngineParts parts) {
        this.parts = parts;
        this.threads = new StoreThreadRegistry(parts.store(), parts.clock());
        LOG.debug("memory engine ready: home {}, memory root {}", parts.home(), parts.memoryRoot());
    }

    @Override
    public StartupTask startStartupTask(SessionContext session) {
        Objects.requireNonNull(session, "session");
        requireOpen();
        throw new UnsupportedOperationException("the startup task arrives with Phase 1 (issue #3)");
    }

    @Override
    public String buildDeveloperInstructions() {
        requireOpen();
        throw new UnsupportedOperationException("developer instructions arrive with the read path (issue #5)");
    }

    @Override
    public AssistantMessage processAssistantMessage(String threadId, String text) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(text, "text");
        requireOpen();
        throw new UnsupportedOperationException("citation processing arrives with the read path (issue #5)");
    }

    @Override
    public ThreadRegistry threads() {
        return threads;
    }

    @Override
    public SessionRecorder sessions() {
        throw new UnsupportedOperationException("the session recorder arrives with Phase 1 (issue #3)");
    }

    @Override
    public MemoryTools tools() {
        throw new UnsupportedOperationException("the memory tools arrive with the read path (issue #5)");
    }

    @Override
    public MemoryAdmin admin() {
        return admin;
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

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the memory engine is closed");
        }
    }

    /** {@link MemoryAdmin} over this engine's parts. */
    private final class Admin implements MemoryAdmin {

        @Override
        public int syncThreads() {
            throw new UnsupportedOperationException("rollout source scanning arrives with Phase 1 (issue #3)");
        }

        @Override
        public Phase1Report runPhase1(String currentThreadId) {
            throw new UnsupportedOperationException("Phase 1 extraction arrives with issue #3");
        }

        @Override
        public Phase2Report runPhase2() {
            throw new UnsupportedOperationException("Phase 2 consolidation arrives with issue #4");
        }

        @Override
        public int prune() {
            requireOpen();
            MemoriesConfig config = parts.config();
            return parts.store().pruneStage1Outputs(config.maxUnusedDays(), PRUNE_BATCH_SIZE, parts.clock().instant());
        }

        @Override
        public MemoryStatus status() {
            requireOpen();
            MemoryStatus fromStore = parts.store().status(parts.clock().instant());
            return new MemoryStatus(fromStore.jobCounts(), fromStore.runningLeases(), fromStore.lastPhase2Success(),
                    fromStore.lastPhase2Failure(), fromStore.threadCounts(), fromStore.stage1Outputs(),
                    Optional.ofNullable(lastStartupSkip.get()), fromStore.checkedAt());
        }

        @Override
        public List<Consolidation> history() {
            requireOpen();
            return parts.workspace().history();
        }

        @Override
        public void rollback(String consolidationId) {
            throw new UnsupportedOperationException("rollback arrives with Phase 2 (issue #4)");
        }

        @Override
        public void clear() {
            throw new UnsupportedOperationException("clearing memories arrives with Phase 2 (issue #4)");
        }
    }

    /** Codex's {@code PRUNE_BATCH_SIZE}: stage-1 rows deleted at most per prune. */
    static final int PRUNE_BATCH_SIZE = 200;
}
