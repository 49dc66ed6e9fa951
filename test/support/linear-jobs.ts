// Generated linear jobs of one bar length for the tests of the proof of one bar fewer
// (linear-proof.test.ts) and of the reduced-cost cover (linear-cover.test.ts): random small
// jobs, and seeded walks to jobs whose fewest bars lie above the rounded-up LP bound, each
// checked by exhaustive search (bin-packing.ts).

import { expect } from 'vitest';
import { solveLinear, type LinearProblem } from '../../src/engine/linear/solve.js';
import { seededRandom } from '../../bench/seeded.js';
import { fewestBars } from './bin-packing.js';

/** A job of one bar length: lengths and demands. */
export interface Job {
  capacity: number;
  parts: [number, number][];
}

export function problem(job: Job): LinearProblem {
  return {
    stock: [{ usable: job.capacity, q: -1, cost: 0 }],
    parts: job.parts.map(([l, q]) => ({ l, q, stock: [0] })),
    kerf: 0, objective: 'count', stockSelection: 'efficiency', seed: 1, budgetMs: 60_000,
  };
}

export const pieces = (job: Job): number[] => job.parts.flatMap(([l, q]) => new Array<number>(q).fill(l));
const pieceCount = (job: Job): number => job.parts.reduce((n, [, q]) => n + q, 0);

/** 8-20 pieces of 2-6 lengths (some repeated), each 10-60 % of the bar, on bars of 20-1000. */
export function randomJob(seed: number): Job {
  const r = seededRandom(seed);
  const capacity = 20 + Math.floor(r() * 980);
  const n = 8 + Math.floor(r() * 13);
  const m = 2 + Math.floor(r() * 5);
  const lengths = Array.from({ length: m }, () => Math.max(1, Math.floor(capacity * (0.1 + r() * 0.5))));
  const counts = new Map<number, number>();
  for (let p = 0; p < n; p++) {
    const l = lengths[Math.floor(r() * m)]!;
    counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  return { capacity, parts: [...counts] };
}

/** The unit test's cutting-stock generator (engine-linear.test.ts): seeds 549 and 3268 give jobs above their LP bound. */
export function fewLengths(seed: number): Job {
  const r = seededRandom(seed);
  const capacity = 100 + Math.floor(r() * 900);
  const m = 3 + Math.floor(r() * 2);
  const lengths = Array.from({ length: m }, () => Math.floor(capacity * (0.12 + r() * 0.4)));
  return { capacity, parts: lengths.map((l) => [l, 3 + Math.floor(r() * 10)]) };
}

/**
 * The rounded-up Gilmore-Gomory LP bound, from the engine's own LP (master.ts, not the
 * proof's); where the engine needs no LP (a greedy plan meets a cheaper bound), that bound.
 */
function roundedLpBound(mod: WebAssembly.Module, job: Job): number {
  const s = solveLinear({ ...problem(job), effort: 1, budgetMs: 10_000 }, mod);
  if (s.lpValue !== null) return Math.ceil(s.lpValue - 1e-6);
  if (!s.optimal) throw new Error('no LP value and no optimal plan');
  return s.lowerBound;
}

/**
 * Distinct jobs whose fewest bars lie above the rounded-up LP bound (about 1 in 1,000 random
 * jobs): a seeded random walk from a known one, each step changing one length, one demand or
 * the bar a little, or adding or dropping a length (one to three such moves), kept when the job is still above its
 * bound (exhaustive search against the engine's LP), so every job it returns is checked.
 */
export function aboveBoundJobs(mod: WebAssembly.Module, start: Job, seed: number, wanted: number, maxPieces: number): { job: Job; fewest: number }[] {
  const r = seededRandom(seed);
  const found: { job: Job; fewest: number }[] = [];
  const seen = new Set<string>();
  let job = start;
  for (let step = 0; step < 100 * wanted && found.length < wanted; step++) {
    const next: Job = { capacity: job.capacity, parts: job.parts.map(([l, q]) => [l, q]) };
    for (let moves = 1 + Math.floor(r() * 3); moves > 0; moves--) {
      const move = r();
      const i = Math.floor(r() * next.parts.length);
      const delta = (r() < 0.5 ? -1 : 1) * (1 + Math.floor(r() * next.capacity * 0.03));
      if (move < 0.45) next.parts[i]![0] = Math.min(next.capacity, Math.max(1, next.parts[i]![0] + delta));
      else if (move < 0.75) next.parts[i]![1] = Math.max(1, next.parts[i]![1] + Math.sign(delta));
      else if (move < 0.85) next.capacity = Math.max(next.parts.reduce((l, [x]) => Math.max(l, x), 1), next.capacity + delta);
      else if (move < 0.95) next.parts.push([Math.max(1, Math.floor(next.capacity * (0.1 + r() * 0.5))), 1]);
      else if (next.parts.length > 2) next.parts.splice(i, 1);
    }
    const n = pieceCount(next);
    const key = JSON.stringify(next);
    if (n < 8 || n > maxPieces || seen.has(key)) continue;
    seen.add(key);
    const fewest = fewestBars(pieces(next), next.capacity);
    if (fewest <= roundedLpBound(mod, next)) continue;
    found.push({ job: next, fewest });
    job = next;
  }
  return found;
}

/** The distinct generated jobs whose optimum lies above the rounded-up LP bound (three walks). */
export function aboveBoundSet(mod: WebAssembly.Module): { job: Job; fewest: number }[] {
  const walks = [
    ...aboveBoundJobs(mod, fewLengths(549), 1, 10, 30),
    ...aboveBoundJobs(mod, fewLengths(3268), 2, 10, 20),
    ...aboveBoundJobs(mod, fewLengths(3268), 3, 10, 20),
  ];
  return [...new Map(walks.map((w) => [JSON.stringify(w.job), w])).values()];
}

/** A packing into at most k bars that a search returned: every piece once, each bar within the bar length. */
export function expectPacking(job: Job, bars: number[][], k: number): void {
  expect(bars.length).toBeLessThanOrEqual(k);
  const placed = job.parts.map(() => 0);
  for (const bar of bars) {
    expect(bar.reduce((t, i) => t + job.parts[i]![0], 0)).toBeLessThanOrEqual(job.capacity);
    for (const i of bar) placed[i]!++;
  }
  expect(placed).toEqual(job.parts.map(([, q]) => q));
}
