/**
 * Path confinement to the memory folder, shared by the memory tools ({@code internal.tools}) and
 * the consolidation agent's file tools ({@code internal.agent}): one rule for a symlinked memory
 * root, one no-follow walk, one real-path check, one way to describe an I/O error without leaking
 * paths, and the {@link dev.mnemo.internal.sandbox.ToolFailure} both tool sets answer with. It
 * depends on no other internal package.
 */
package dev.mnemo.internal.sandbox;
