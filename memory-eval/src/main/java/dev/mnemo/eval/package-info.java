/**
 * {@code mnemo eval}: measures how good an agent's memory is with a given model. A bundled set of
 * synthetic users ({@link dev.mnemo.eval.ScenarioSet}) is recorded, extracted and consolidated with
 * that model; probe questions are then answered with Mnemo, without memory and with the raw
 * transcripts pasted, and graded deterministically ({@link dev.mnemo.eval.EvalReport}). Its
 * cross-project scenarios ({@link dev.mnemo.eval.CrossProjectScenario}) measure how often one
 * project's facts contaminate another's answers, scoped and with one global memory
 * ({@link dev.mnemo.eval.ReadPath}). Entry point: {@link dev.mnemo.eval.MemoryEval}.
 */
package dev.mnemo.eval;
