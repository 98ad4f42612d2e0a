package dev.mnemo.it;

import dev.mnemo.MemoryStoreException;
import dev.mnemo.spi.MemoryStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fault injector, not a mock: every call goes to a real store, except calls to the methods the
 * test armed, which throw a {@link MemoryStoreException} as a failing database would, and calls
 * after which the test interleaves another thread's write (a race made deterministic).
 */
final class FaultyStore {

    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private final Map<String, Runnable> interleaved = new ConcurrentHashMap<>();

    /** From now on, calls to these {@link MemoryStore} methods throw. */
    void failOn(String... methods) {
        failing.addAll(Set.of(methods));
    }

    /**
     * The next call to {@code method}, once the real store has answered and before the caller sees
     * the answer, waits while a second thread runs {@code write}.
     */
    void interleaveAfter(String method, Runnable write) {
        interleaved.put(method, write);
    }

    /** {@code real}, with the armed methods failing. */
    MemoryStore around(MemoryStore real) {
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    if (failing.contains(method.getName())) {
                        throw new MemoryStoreException("injected store failure in " + method.getName());
                    }
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    Runnable write = interleaved.remove(method.getName());
                    if (write != null) {
                        runOnAnotherThread(write);
                    }
                    return result;
                });
    }

    private static void runOnAnotherThread(Runnable write) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                write.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "interleaved-writer");
        other.start();
        other.join();
        if (failure.get() != null) {
            throw new AssertionError("the interleaved write failed", failure.get());
        }
    }
}
