// Pool thread entry: one calculation per call, on a fresh WASM instance (a roll nesting job
// runs its second search on a thread of its own, nesting-runs.ts); or one model analysis.
import { performance } from 'node:perf_hooks';
import { runAnalysis } from '../analysis/run.js';
import { CalculationRefused, calculate } from '../engine/calculate.js';
import type { CalcRequest } from '../schema/request.js';
import type { AnalysisOutcome, AnalysisTask, CalculateTask, TaskOutcome } from './task.js';

export default function run(task: CalculateTask | AnalysisTask): Promise<TaskOutcome | AnalysisOutcome> {
  if (task.kind === 'analysis') return runAnalysis(task);
  return runCalculation(task);
}

async function runCalculation(task: CalculateTask): Promise<TaskOutcome> {
  const started = performance.now();
  const request = JSON.parse(task.request) as CalcRequest;
  try {
    const record = await calculate(request, { jobId: task.jobId, budgetMs: task.budgetMs, minOffcut: task.minOffcut, defaultSearchMs: task.defaultSearchMs });
    return { ok: true, result: JSON.stringify(record), computeMs: performance.now() - started };
  } catch (error) {
    if (error instanceof CalculationRefused) return { ok: false, message: error.message, computeMs: performance.now() - started };
    throw error;
  }
}
