/**
 * The default Phase 2 {@link dev.mnemo.spi.ConsolidationAgent}: a tool-calling loop over the
 * consolidation model whose only tools read and write files inside the memory folder. Nothing
 * here runs a shell or opens a network connection; every path the model names is checked against
 * the folder before any file is touched.
 */
package dev.mnemo.internal.agent;
