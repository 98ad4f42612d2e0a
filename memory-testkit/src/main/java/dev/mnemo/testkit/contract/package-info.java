/**
 * Contract suites for Mnemo's plug-in points: abstract JUnit classes that an implementation's test
 * extends, supplying only how to open the implementation under test. Every implementation Mnemo
 * ships runs them, and so should every third-party store, workspace, rollout source, redactor,
 * consolidation agent and {@link dev.mnemo.llm.LanguageModel} adapter.
 *
 * <ul>
 *   <li>{@link dev.mnemo.testkit.contract.MemoryStoreContract}: {@link dev.mnemo.spi.MemoryStore}
 *       (Codex's state-DB tests plus Mnemo's own rules); its thread-registry part alone is
 *       {@link dev.mnemo.testkit.contract.ThreadStoreContract}, for test doubles that keep only thread rows;
 *       {@link dev.mnemo.testkit.contract.ApprovalUpgradeContract} (which includes
 *       {@link dev.mnemo.testkit.contract.ProjectUpgradeContract}) is for a store's schema-upgrade
 *       test (data written before scoped memory reads as global, and as approved);</li>
 *   <li>the state layer beside a store: {@link dev.mnemo.testkit.contract.GoalStoreContract}
 *       ({@link dev.mnemo.spi.GoalStore}), {@link dev.mnemo.testkit.contract.ThreadLogStoreContract}
 *       ({@link dev.mnemo.spi.ThreadLogStore}) and {@link dev.mnemo.testkit.contract.HistoryStoreContract}
 *       ({@link dev.mnemo.spi.HistoryStore});</li>
 *   <li>{@link dev.mnemo.testkit.contract.MemoryWorkspaceContract}: {@link dev.mnemo.spi.MemoryWorkspace};</li>
 *   <li>{@link dev.mnemo.testkit.contract.SecretRedactorContract}: {@link dev.mnemo.spi.SecretRedactor};</li>
 *   <li>{@link dev.mnemo.testkit.contract.RolloutSourceContract}: {@link dev.mnemo.spi.RolloutSource};</li>
 *   <li>{@link dev.mnemo.testkit.contract.ConsolidationAgentContract}:
 *       {@link dev.mnemo.spi.ConsolidationAgent};</li>
 *   <li>{@link dev.mnemo.testkit.contract.LanguageModelContract}: adapters of
 *       {@link dev.mnemo.llm.LanguageModel} that speak OpenAI's wire formats.</li>
 * </ul>
 *
 * <p>The suites use only Mnemo's public API ({@code dev.mnemo}, {@code dev.mnemo.spi},
 * {@code dev.mnemo.llm}).
 */
package dev.mnemo.testkit.contract;
