/**
 * Mnemo for agent authors: build a {@link dev.mnemo.MemoryEngine} once, call
 * {@link dev.mnemo.MemoryEngine#startStartupTask} when a session starts, inject
 * {@link dev.mnemo.MemoryEngine#buildDeveloperInstructions()} into the prompt, and pass the model's
 * answers through {@link dev.mnemo.MemoryEngine#processAssistantMessage}.
 *
 * <p>Plug-in contracts live in {@link dev.mnemo.spi}; everything under {@code dev.mnemo.internal}
 * is private to this module.
 */
package dev.mnemo;
