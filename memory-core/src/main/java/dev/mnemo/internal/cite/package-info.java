/**
 * The {@code <oai-mem-citation>} markup a model appends to answers that used memory: stripping it
 * from whole or streamed text, parsing the block bodies, and turning cited rollout ids into usage.
 */
package dev.mnemo.internal.cite;
