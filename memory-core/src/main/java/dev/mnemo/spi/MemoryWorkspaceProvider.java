package dev.mnemo.spi;

import java.nio.file.Path;

/** Opens the default {@link MemoryWorkspace}; registered for {@link java.util.ServiceLoader}. */
public interface MemoryWorkspaceProvider {

    /**
     * A short name for error messages, e.g. {@code git}.
     *
     * @return the provider's name
     */
    String name();

    /**
     * Opens the workspace rooted at {@code memoryRoot} (usually {@code <home>/memories}).
     *
     * @param memoryRoot the memory folder; created by {@link MemoryWorkspace#prepare()} when missing
     * @return the workspace; the caller closes it
     */
    MemoryWorkspace open(Path memoryRoot);
}
