/**
 * The read path's prompt side: turning {@code memory_summary.md} into the developer instructions an
 * agent hands its model, and the byte-based token estimate and middle truncation it shares with the
 * memory tools.
 */
package dev.mnemo.internal.read;
