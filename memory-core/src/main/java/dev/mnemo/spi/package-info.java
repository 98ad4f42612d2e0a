/**
 * Contracts for people who plug parts into Mnemo: the state store, the workspace, rollout
 * sources, the secret redactor, the consolidation agent and event listeners. Each contract has an
 * abstract test suite in this module's test jar that every implementation runs.
 *
 * <p>Implementations are wired on {@link dev.mnemo.MemoryEngine.Builder}; the default store and
 * workspace are found with {@link java.util.ServiceLoader} ({@link dev.mnemo.spi.MemoryStoreProvider},
 * {@link dev.mnemo.spi.MemoryWorkspaceProvider}) only when none is given.
 */
package dev.mnemo.spi;
