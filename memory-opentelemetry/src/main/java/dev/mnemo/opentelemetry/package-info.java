/**
 * OpenTelemetry for Mnemo: {@link dev.mnemo.opentelemetry.MnemoTelemetry#listener} turns the
 * engine's memory operations into the GenAI memory conventions' {@code gen_ai.memory.client} spans
 * and the {@code gen_ai.client.operation.duration} metric, and
 * {@link dev.mnemo.opentelemetry.MnemoTelemetry#languageModel} gives the model calls Mnemo makes
 * itself GenAI client spans. Only the OpenTelemetry API is needed; the application brings the SDK.
 */
package dev.mnemo.opentelemetry;
