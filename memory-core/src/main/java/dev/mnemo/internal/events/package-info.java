/** The background pipeline's runs and memory operations, as the engine's listeners hear them. */
package dev.mnemo.internal.events;
