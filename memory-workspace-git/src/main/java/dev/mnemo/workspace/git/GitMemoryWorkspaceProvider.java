package dev.mnemo.workspace.git;

import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.MemoryWorkspaceProvider;
import java.nio.file.Path;

/** Registers {@link GitMemoryWorkspace} for {@link java.util.ServiceLoader} under the name {@code git}. */
public final class GitMemoryWorkspaceProvider implements MemoryWorkspaceProvider {

    /** Called by {@link java.util.ServiceLoader}. */
    public GitMemoryWorkspaceProvider() {}

    @Override
    public String name() {
        return "git";
    }

    @Override
    public MemoryWorkspace open(Path memoryRoot) {
        return GitMemoryWorkspace.open(memoryRoot);
    }
}
