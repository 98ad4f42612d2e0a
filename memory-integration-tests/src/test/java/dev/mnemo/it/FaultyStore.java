package dev.mnemo.it;

import dev.mnemo.MemoryStoreException;
import dev.mnemo.spi.MemoryStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fault injector, not a mock: every call goes to a real store, except calls to the methods the
 * test armed, which throw a {@link MemoryStoreException} as a failing database would.
 */
final class FaultyStore {

    private final Set<String> failing = ConcurrentHashMap.newKeySet();

    /** From now on, calls to these {@link MemoryStore} methods throw. */
    void failOn(String... methods) {
        failing.addAll(Set.of(methods));
    }

    /** {@code real}, with the armed methods failing. */
    MemoryStore around(MemoryStore real) {
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    if (failing.contains(method.getName())) {
                        throw new MemoryStoreException("injected store failure in " + method.getName());
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
