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
 * {@code history} is the {@code [history]} table, {@code logsRetention} the {@code [logs]} table's
 * retention; {@code goalTools} offers the goal tools to models;
 * {@code readOnly} marks an engine that only looks ({@link dev.mnemo.MemoryEngine.Builder#readOnly}).
 * {@code tenantId} is the tenant the engine serves in a fleet ({@link TenantEngines}), null otherwise.
 */
record EngineParts(Path home, Path memoryRoot, MemoriesConfig config, LanguageModel extractionModel,
        LanguageModel consolidationModel, ConsolidationAgent consolidationAgent, MemoryStore store, boolean ownsStore,
        MemoryWorkspace workspace, boolean ownsWorkspace, List<RolloutSource> rolloutSources, SessionStore sessionStore,
        SecretRedactor redactor, List<MemoryEventListener> listeners, Clock clock, Clock wallClock,
        ExecutorService executor, Duration closeTimeout, Duration conversationIdleTimeout, int maxOpenConversations,
        HistoryConfig history, Duration logsRetention, boolean goalTools, boolean readOnly, String tenantId) {

    /** The label a home without a usable folder name gets. */
    static final String DEFAULT_STORE_LABEL = "mnemo";

    /**
     * The store's id in what listeners hear ({@code gen_ai.memory.store.id}): the tenant's id in a
     * fleet, else the home's label, its folder's name. Never a path: a tenant id's {@code /},
     * {@code \} and {@code %} are written as {@code %2F}, {@code %5C} and {@code %25}.
     */
    String storeLabel() {
        if (tenantId != null) {
            return tenantId.replace("%", "%25").replace("/", "%2F").replace("\\", "%5C");
        }
        Path name = home.getFileName();
        return name == null || name.toString().isBlank() ? DEFAULT_STORE_LABEL : name.toString();
    }
}
