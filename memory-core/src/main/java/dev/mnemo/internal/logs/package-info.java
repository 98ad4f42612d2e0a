/**
 * Thread logs: the engine's events, one entry per step, written per thread to a
 * {@link dev.mnemo.spi.ThreadLogStore} through a bounded queue that never blocks the pipeline.
 */
package dev.mnemo.internal.logs;
