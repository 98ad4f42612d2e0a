/**
 * The Mnemo console: a local web page that shows what a {@link dev.mnemo.MemoryEngine} remembers,
 * where each memory came from and how the pipeline is doing, and lets its owner correct it (roll
 * back, disable or forget a conversation, approve or reject pending memories, refresh now).
 *
 * <p>{@link dev.mnemo.console.MnemoConsole} is the whole public surface; {@code mnemo ui} is its
 * command-line front. Everything else in this package is package-private.
 */
package dev.mnemo.console;
