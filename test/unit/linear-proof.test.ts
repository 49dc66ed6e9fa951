// The linear engine's proof of one bar fewer (engine-as/linear/prove.ts), run on its own
// (bench/prove-bars.ts) and held against exhaustive search (test/support/bin-packing.ts) on
// generated jobs: with k = fewest bars - 1 it must never find a packing, and should prove
// that none exists within its node budget; with k = fewest bars it must never prove, and a
// packing it finds must be one. Random jobs mostly test the second (their LP bound rounded
// up is the optimum, so k = fewest - 1 ends at the root); jobs whose optimum lies above
// the rounded-up LP bound, the ones the proof is for, test both.
// Needs build/linear.wasm (make build).

import { beforeAll, describe, expect, it } from 'vitest';
import { loadLinearModule, solveLinear, type LinearProblem } from '../../src/engine/linear/solve.js';
import { proveBars, type ProofRun } from '../../bench/prove-bars.js';
import { seededRandom } from '../../bench/seeded.js';
import { fewestBars } from '../support/bin-packing.js';

let mod: WebAssembly.Module;
beforeAll(() => {
  mod = loadLinearModule();
});

/** A job of one bar length: lengths and demands. */
interface Job {
  capacity: number;
  parts: [number, number][];
}

const NODES = 4000;

function problem(job: Job): LinearProblem {
  return {
    stock: [{ usable: job.capacity, q: -1, cost: 0 }],
    parts: job.parts.map(([l, q]) => ({ l, q, stock: [0] })),
    kerf: 0, objective: 'count', stockSelection: 'efficiency', seed: 1, budgetMs: 60_000,
  };
}

const pieces = (job: Job): number[] => job.parts.flatMap(([l, q]) => new Array<number>(q).fill(l));
const pieceCount = (job: Job): number => job.parts.reduce((n, [, q]) => n + q, 0);

/** 8-20 pieces of 2-6 lengths (some repeated), each 10-60 % of the bar, on bars of 20-1000. */
function randomJob(seed: number): Job {
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
function fewLengths(seed: number): Job {
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
function roundedLpBound(job: Job): number {
  const s = solveLinear({ ...problem(job), effort: 1, budgetMs: 10_000 }, mod);
  if (s.lpValue !== null) return Math.ceil(s.lpValue - 1e-6);
  expect(s.optimal).toBe(true);
  return s.lowerBound;
}

/**
 * Distinct jobs whose fewest bars lie above the rounded-up LP bound (about 1 in 1,000 random
 * jobs): a seeded random walk from a known one, each step changing one length, one demand or
 * the bar a little, or adding or dropping a length (one to three such moves), kept when the job is still above its
 * bound (exhaustive search against the engine's LP), so every job it returns is checked.
 */
function aboveBoundJobs(start: Job, seed: number, wanted: number, maxPieces: number): { job: Job; fewest: number }[] {
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
    if (fewest <= roundedLpBound(next)) continue;
    found.push({ job: next, fewest });
    job = next;
  }
  return found;
}

/** A packing the proof found: every piece once, each bar within the bar length. */
function expectPacking(job: Job, run: ProofRun, k: number): void {
  expect(run.bars.length).toBeLessThanOrEqual(k);
  const placed = job.parts.map(() => 0);
  for (const bar of run.bars) {
    expect(bar.reduce((t, i) => t + job.parts[i]![0], 0)).toBeLessThanOrEqual(job.capacity);
    for (const i of bar) placed[i]!++;
  }
  expect(placed).toEqual(job.parts.map(([, q]) => q));
}

/** Runs the proof with k = fewest - 1 and k = fewest; returns whether the first proved. */
function checkProof(job: Job, fewest: number): { proven: boolean; nodes: number } {
  const p = problem(job);
  const below = proveBars(p, fewest - 1, NODES, mod);
  expect(below.status).not.toBe('found');
  const at = proveBars(p, fewest, NODES, mod);
  expect(at.status).not.toBe('proven');
  if (at.status === 'found') expectPacking(job, at, fewest);
  return { proven: below.status === 'proven', nodes: below.nodes };
}

describe('linear proof of one bar fewer, against exhaustive search', () => {
  it('never proves a packable bar count, never finds an impossible one, on 300 random jobs', () => {
    let proven = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const job = randomJob(seed);
      if (checkProof(job, fewestBars(pieces(job), job.capacity)).proven) proven++;
    }
    // Their fewest bars equal the rounded-up LP bound, which the root of the proof shows.
    expect(proven).toBe(300);
  });

  it('proves jobs whose optimum lies above the rounded-up LP bound, and never wrongly', () => {
    const walks = [
      ...aboveBoundJobs(fewLengths(549), 1, 10, 30),
      ...aboveBoundJobs(fewLengths(3268), 2, 10, 20),
      ...aboveBoundJobs(fewLengths(3268), 3, 10, 20),
    ];
    const jobs = [...new Map(walks.map((w) => [JSON.stringify(w.job), w])).values()];
    expect(jobs.length).toBeGreaterThanOrEqual(24);
    let proven = 0;
    const nodes: number[] = [];
    for (const { job, fewest } of jobs) {
      const r = checkProof(job, fewest);
      if (r.proven) proven++;
      nodes.push(r.nodes);
    }
    console.log(`above-bound jobs: ${jobs.length}, proven ${proven}, nodes ${nodes.join(' ')}`);
    expect(proven).toBeGreaterThanOrEqual(Math.ceil(0.8 * jobs.length));
  });
});
