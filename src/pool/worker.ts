// Pool thread entry: one calculation per call, on a fresh WASM instance (a roll nesting job
// runs its second search on a thread of its own, src/engine/nesting/runs.ts); or one model analysis.
import { performance } from 'node:perf_hooks';
import { runAnalysis } from '../analysis/run.js';
import { CalculationRefused, LayoutRejected, calculate } from '../engine/calculate.js';
import type { CalcRequest } from '../schema/request.js';
import type { ResultRecord } from '../schema/result.js';
import type { AnalysisOutcome, AnalysisTask, CalculateTask, TaskOutcome } from './task.js';

/** Where the test-only fault worker (fault-worker.ts) steps in; production passes none. */
export interface CalculationHooks {
  /** Before the engine runs, inside the calculation: what it throws fails the job like an engine error. */
  beforeSolve?: (request: CalcRequest, attempt: number) => void;
  /** On the finished record, before the layout check. */
  beforeCheck?: (request: CalcRequest, record: ResultRecord) => void;
}

export default function run(task: CalculateTask | AnalysisTask): Promise<TaskOutcome | AnalysisOutcome> {
  if (task.kind === 'analysis') return runAnalysis(task);
  return runCalculation(task);
}

export async function runCalculation(task: CalculateTask, hooks: CalculationHooks = {}): Promise<TaskOutcome> {
  const started = performance.now();
  const request = JSON.parse(task.request) as CalcRequest;
  try {
    hooks.beforeSolve?.(request, task.attempt);
    const options = { jobId: task.jobId, budgetMs: task.budgetMs, minOffcut: task.minOffcut, defaultSearchMs: task.defaultSearchMs };
    const record = await calculate(request, options, hooks.beforeCheck && ((r) => hooks.beforeCheck!(request, r)));
    return { ok: true, result: JSON.stringify(record), computeMs: performance.now() - started };
  } catch (error) {
    // Whatever the calculation throws, it throws again for the same request (the engines are
    // deterministic): the job fails now with the cause. Only a thread that dies (piscina
    // rejects without this answer) sends the job back to the queue.
    if (error instanceof CalculationRefused) return { ok: false, message: error.message, computeMs: performance.now() - started };
    const violations = error instanceof LayoutRejected ? error.violations : undefined;
    return { ok: false, message: engineFailure(error), computeMs: performance.now() - started, internal: true, ...(violations ? { violations } : {}) };
  }
}

/** The message of a job whose engine threw: the cause, as the engine put it. */
function engineFailure(error: unknown): string {
  if (error instanceof LayoutRejected) return error.message;
  const cause = error instanceof Error ? error.message : String(error);
  return `the calculation failed: ${cause}`;
}
