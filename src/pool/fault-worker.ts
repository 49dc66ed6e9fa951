// Test-only pool thread entry, loaded instead of worker.ts when the server runs with
// KERF_TEST_FAULTS=1 (the crash tests' servers set it): the production worker with faults
// keyed on the first part's name.
// - "__exit__" kills its pool thread on the first attempt;
// - "__hang__" spins forever, ignoring every deadline, so the backstop must act;
// - "__slow__" sleeps 3 s on every attempt, so a test can kill its process mid-job;
// - "__throw__" throws inside the calculation on every attempt, as a faulty engine would;
// - "__overlap__" moves the second placed part onto the first before the layout check.
import type { CalcRequest } from '../schema/request.js';
import type { ResultRecord } from '../schema/result.js';
import type { AnalysisTask, CalculateTask } from './task.js';
import run, { runCalculation } from './worker.js';

const firstName = (request: CalcRequest) => request.parts[0]?.name;

function beforeSolve(request: CalcRequest, attempt: number): void {
  const name = firstName(request);
  if (name === '__exit__' && attempt === 1) process.exit(70);
  if (name === '__hang__') for (;;);
  if (name === '__throw__') throw new Error('injected engine fault (__throw__)');
  if (name === '__slow__') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_000);
}

function beforeCheck(request: CalcRequest, record: ResultRecord): void {
  if (firstName(request) !== '__overlap__') return;
  const [first, second] = record.parts.filter((p) => p.added);
  if (first && second) Object.assign(second, { x: first.x, y: first.y, stock: first.stock });
}

export default function runWithFaults(task: CalculateTask | AnalysisTask): ReturnType<typeof run> {
  return task.kind === 'calculate' ? runCalculation(task, { beforeSolve, beforeCheck }) : run(task);
}
