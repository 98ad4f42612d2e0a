package dev.mnemo.spi;

import java.nio.file.Path;

/** Opens the default {@link MemoryWorkspace}; registered for {@link java.util.ServiceLoader}. */
public interface MemoryWorkspaceProvider {

    /** A short name for error messages, e.g. {@code git}. */
    String name();

    /** Opens the workspace rooted at {@code memoryRoot} (usually {@code <home>/memories}). */
    MemoryWorkspace open(Path memoryRoot);
}
