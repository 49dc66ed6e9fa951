// Worker thread entry: one extra run of a roll nesting job (runs.ts), on what is left
// of the job's budget when the thread is up, and its solution back.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { loadNestingModule, solveNesting, type NestingProblem } from './solve.js';

const { problem, deadline } = workerData as { problem: NestingProblem; deadline: number };
const budgetMs = Math.max(1, deadline - (performance.timeOrigin + performance.now()));
parentPort!.postMessage(solveNesting({ ...problem, budgetMs }, loadNestingModule()));
