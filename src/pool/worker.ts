// Pool thread entry: one calculation per call, on a fresh WASM instance.
import { performance } from 'node:perf_hooks';
import { loadEngineModule, solveGuillotine } from '../engine/guillotine.js';
import { toGuillotineProblem } from '../engine/problem.js';
import { buildRecord } from '../result/record.js';
import type { CalcRequest } from '../schema/request.js';
import { injectFault } from './faults.js';
import type { CalculateTask, TaskOutcome } from './task.js';

const UNSUPPORTED: Partial<Record<string, string>> = {
  linear: 'linear stock is not available yet',
  roll: 'roll stock is not available yet',
  beam: 'cutType beam is not available yet',
  nesting: 'cutType nesting is not available yet',
};

export default function run(task: CalculateTask): TaskOutcome {
  const started = performance.now();
  const request = JSON.parse(task.request) as CalcRequest;
  injectFault(request.parts[0]?.name, task.attempt);
  const unsupported = UNSUPPORTED[request.saw.stockType] ?? UNSUPPORTED[request.saw.cutType];
  if (unsupported) return { ok: false, message: unsupported, computeMs: performance.now() - started };
  const mapped = toGuillotineProblem(request, task.budgetMs);
  const solution = solveGuillotine(mapped.problem, loadEngineModule());
  const record = buildRecord(request, mapped, solution, { jobId: task.jobId, minOffcut: task.minOffcut });
  return { ok: true, result: JSON.stringify(record), computeMs: performance.now() - started };
}
