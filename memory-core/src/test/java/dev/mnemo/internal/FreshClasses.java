package dev.mnemo.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A class loader for cold-start tests: it defines the classes of the given packages itself (from
 * the parent's class files), so a test can tell which of them a piece of code loaded; everything
 * else comes from the parent.
 */
public final class FreshClasses extends ClassLoader {

    private final List<String> prefixes;

    /** @param prefixes the package prefixes defined afresh, e.g. {@code "dev.mnemo."} */
    public FreshClasses(ClassLoader parent, String... prefixes) {
        super(parent);
        this.prefixes = List.of(prefixes);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (prefixes.stream().noneMatch(name::startsWith)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                byte[] bytes = classFile(name);
                loaded = defineClass(name, bytes, 0, bytes.length);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    private byte[] classFile(String name) throws ClassNotFoundException {
        try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether this loader has loaded {@code name} (only meaningful for the fresh packages). */
    public boolean loaded(String name) {
        return findLoadedClass(name) != null;
    }
}
