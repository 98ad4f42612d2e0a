/**
 * The git-baselined memory workspace: {@link dev.mnemo.workspace.git.GitMemoryWorkspace} keeps the
 * baseline, the diff Phase 2 reads, the consolidation history, rollback and real forgetting in a
 * private JGit repository inside the memory root. Registered as the {@code git}
 * {@link dev.mnemo.spi.MemoryWorkspaceProvider}.
 */
package dev.mnemo.workspace.git;
