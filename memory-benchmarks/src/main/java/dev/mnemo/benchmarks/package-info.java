/**
 * JMH benchmarks for the figures of {@code docs/performance.md}, each beside a reference measured
 * in the same run; {@code bench/run.sh} builds and runs them. Not published and not part of the
 * default build (Maven profile {@code bench}).
 *
 * <p>This is the one module besides memory-core that uses {@code dev.mnemo.internal} classes: it
 * times pipeline stages (the Phase 1 rollout renderer, the memory search) directly, which the
 * public API reaches only through the whole engine. Nothing here is an example to follow.
 */
package dev.mnemo.benchmarks;
