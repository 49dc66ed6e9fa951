// Test-only pool thread entry, loaded instead of worker.ts when the server runs with
// KERF_TEST_FAULTS=1 (the crash tests' servers set it): the production worker with faults in
// front. A job whose first part is named "__exit__" kills its pool thread on the first attempt;
// "__hang__" spins forever, ignoring every deadline, so the backstop must act; "__slow__" sleeps
// 3 s on every attempt, so a test can kill its process mid-job.
import type { AnalysisTask, CalculateTask } from './task.js';
import run from './worker.js';

function injectFault(firstPartName: string | undefined, attempt: number): void {
  if (firstPartName === '__exit__' && attempt === 1) process.exit(70);
  if (firstPartName === '__hang__') for (;;);
  if (firstPartName === '__slow__') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_000);
}

export default function runWithFaults(task: CalculateTask | AnalysisTask): ReturnType<typeof run> {
  if (task.kind === 'calculate') injectFault((JSON.parse(task.request) as { parts?: { name?: string }[] }).parts?.[0]?.name, task.attempt);
  return run(task);
}
