package dev.mnemo.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.MemoryStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How often the provenance list reads the store: the real SQLite store, seen through a proxy that
 * only counts the calls it passes on.
 */
class ProvenanceReadsTest {

    @TempDir
    Path temp;

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private ConsoleHome home;

    @AfterEach
    void closeHome() {
        home.close();
    }

    @Test
    void provenanceList_readsTheApprovalQueueOnce_notOncePerConversation() {
        home = ConsoleHome.withStoreSeenThrough(temp.resolve("home"), this::counting).withHistory();
        home.recordSession("chat-extra-1", "small talk one");
        home.recordSession("chat-extra-2", "small talk two");
        home.extractAndConsolidate();
        ConsoleClient client = new ConsoleClient(home.console);
        client.page("/refresh");
        calls.clear();

        Document page = client.page("/provenance");

        assertThat(page.select("table.memories a.provenance")).hasSizeGreaterThanOrEqualTo(3);
        assertThat(count("stage1OutputsAwaitingApproval")).isEqualTo(1);
        assertThat(count("threads")).isLessThanOrEqualTo(1);
    }

    private int count(String method) {
        return calls.getOrDefault(method, new AtomicInteger()).get();
    }

    private MemoryStore counting(MemoryStore store) {
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        for (Class<?> type = store.getClass(); type != null; type = type.getSuperclass()) {
            interfaces.addAll(java.util.List.of(type.getInterfaces()));
        }
        InvocationHandler handler = (proxy, method, args) -> {
            calls.computeIfAbsent(method.getName(), name -> new AtomicInteger()).incrementAndGet();
            try {
                return method.invoke(store, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                interfaces.toArray(Class<?>[]::new), handler);
    }
}
