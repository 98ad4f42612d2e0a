/** Loading and clamping the {@code [memories]} configuration. */
package dev.mnemo.internal.config;
