/**
 * Phase 1: turning one rollout into a raw memory. {@link dev.mnemo.internal.extract.RolloutRenderer}
 * builds the model input from a rollout.
 */
package dev.mnemo.internal.extract;
