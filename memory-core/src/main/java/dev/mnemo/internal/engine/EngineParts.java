package dev.mnemo.internal.engine;

import dev.mnemo.HistoryConfig;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.RolloutSource;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.spi.SessionStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * Everything an engine is built from, after validation. Nullable fields are parts that were not
 * configured: no model, no custom agent, the built-in redactor, an engine-owned executor.
 * {@code clock} decides (leases, windows, backoffs); {@code wallClock} times what is reported.
 * {@code history} is the {@code [history]} table; {@code goalTools} offers the goal tools to models;
 * {@code readOnly} marks an engine that only looks ({@link dev.mnemo.MemoryEngine.Builder#readOnly}).
 */
record EngineParts(Path home, Path memoryRoot, MemoriesConfig config, LanguageModel extractionModel,
        LanguageModel consolidationModel, ConsolidationAgent consolidationAgent, MemoryStore store, boolean ownsStore,
        MemoryWorkspace workspace, boolean ownsWorkspace, List<RolloutSource> rolloutSources, SessionStore sessionStore,
        SecretRedactor redactor, List<MemoryEventListener> listeners, Clock clock, Clock wallClock,
        ExecutorService executor, Duration closeTimeout, Duration conversationIdleTimeout, int maxOpenConversations,
        HistoryConfig history, boolean goalTools, boolean readOnly) {

    /**
     * How memory operations name the store this engine works on ({@code gen_ai.memory.store.id}):
     * the home folder's name, never its path.
     */
    String storeLabel() {
        Path name = home.getFileName();
        return name == null ? "" : name.toString();
    }
}
