/** Phase 2: global consolidation of stage-1 memories into the memory folder. */
package dev.mnemo.internal.consolidate;
