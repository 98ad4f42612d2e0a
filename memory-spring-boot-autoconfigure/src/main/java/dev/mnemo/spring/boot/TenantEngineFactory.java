package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Opens each user's engine for the auto-configured {@link MemoryEngines}, and keeps track of the
 * engines it opened that are still open, so that the pipeline schedule and the health indicator
 * can reach them without {@link MemoryEngines#lease}: a lease counts as use, so a schedule that
 * leased every open engine every quarter of an hour would keep each user's engine open forever,
 * whatever the idle timeout.
 *
 * <p>An engine reached this way may be closed by the set at any moment (idle or beyond
 * {@code maxOpen}); its calls then throw {@link IllegalStateException}, which callers skip. An
 * engine's close waits, bounded, for a pipeline run it is doing.
 */
final class TenantEngineFactory implements Function<String, MemoryEngine> {

    private final TenantStorage storage;
    private final UnaryOperator<MemoryEngine.Builder> settings;
    private final Map<String, MemoryEngine> opened = new ConcurrentHashMap<>();
    private volatile MemoryEngines engines;

    TenantEngineFactory(TenantStorage storage, UnaryOperator<MemoryEngine.Builder> settings) {
        this.storage = storage;
        this.settings = settings;
    }

    /** The set this factory opens engines for: what tells which engines are still open. */
    void openingFor(MemoryEngines engines) {
        this.engines = Objects.requireNonNull(engines, "engines");
    }

    TenantStorage storage() {
        return storage;
    }

    @Override
    public MemoryEngine apply(String tenantId) {
        MemoryEngine engine = storage.builder(tenantId, settings).build();
        opened.put(tenantId, engine);
        forgetClosed();
        return engine;
    }

    /** The engines of the users whose engines are open now; their ids stay here. */
    List<MemoryEngine> openEngines() {
        forgetClosed();
        return new ArrayList<>(opened.values());
    }

    /**
     * Forgets the engines of users no longer open. The entries are read before the open users, so
     * an engine that opened meanwhile (its user open before its entry is written) is never dropped.
     */
    private void forgetClosed() {
        MemoryEngines set = engines;
        if (set == null) {
            return;
        }
        List<Map.Entry<String, MemoryEngine>> entries = List.copyOf(opened.entrySet());
        Set<String> open = set.openTenants();
        for (Map.Entry<String, MemoryEngine> entry : entries) {
            if (!open.contains(entry.getKey())) {
                opened.remove(entry.getKey(), entry.getValue());
            }
        }
    }
}
