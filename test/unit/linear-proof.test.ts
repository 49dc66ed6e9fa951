// The linear engine's proof of one bar fewer (engine-as/linear/prove.ts), run on its own
// (bench/prove-bars.ts) and held against exhaustive search (test/support/bin-packing.ts) on
// generated jobs: with k = fewest bars - 1 it must never find a packing, and should prove
// that none exists within its node budget; with k = fewest bars it must never prove, and a
// packing it finds must be one. Random jobs mostly test the second (their LP bound rounded
// up is the optimum, so k = fewest - 1 ends at the root); jobs whose optimum lies above
// the rounded-up LP bound, the ones the proof is for, test both.
// Needs build/linear.wasm (make build).

import { beforeAll, describe, expect, it } from 'vitest';
import { loadLinearModule } from '../../src/engine/linear/solve.js';
import { proveBars } from '../../bench/prove-bars.js';
import { fewestBars } from '../support/bin-packing.js';
import { aboveBoundSet, expectPacking, pieces, problem, randomJob, type Job } from '../support/linear-jobs.js';

let mod: WebAssembly.Module;
beforeAll(() => {
  mod = loadLinearModule();
});

const NODES = 4000;

/** Runs the proof with k = fewest - 1 and k = fewest; returns whether the first proved. */
function checkProof(job: Job, fewest: number): { proven: boolean; nodes: number } {
  const p = problem(job);
  const below = proveBars(p, fewest - 1, NODES, mod);
  expect(below.status).not.toBe('found');
  const at = proveBars(p, fewest, NODES, mod);
  expect(at.status).not.toBe('proven');
  if (at.status === 'found') expectPacking(job, at.bars, fewest);
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
    const jobs = aboveBoundSet(mod);
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
