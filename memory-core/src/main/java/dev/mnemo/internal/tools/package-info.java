/**
 * The memory tools a model can call ({@code memories_list}, {@code memories_read},
 * {@code memories_search}, {@code memories_add_ad_hoc_note}): strict JSON arguments, paths confined
 * to the memory root (no {@code ..}, no absolute paths, hidden entries invisible, symlinks refused),
 * and JSON results or JSON errors the model can read.
 */
package dev.mnemo.internal.tools;
