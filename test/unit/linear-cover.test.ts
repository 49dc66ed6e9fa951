// The linear engine's reduced-cost cover (engine-as/linear/rc-cover.ts), run on its own
// (bench/cover-bars.ts) and held against exhaustive search (test/support/bin-packing.ts) on
// generated jobs: with k = fewest bars it must never call the search exhausted (that would be
// a false proof), and a plan it finds must be one; with k = fewest bars - 1 it must never find
// a plan, and on jobs whose optimum lies above the rounded-up LP bound (where the cover is a
// proof) it should exhaust its search. Each run three times: the cover search alone; the LP probe
// (rc-probe.ts) first, which removes patterns before the search; and the probe first with the
// patterns held to the duals of 4 tilted LP re-solves too (as the search does when the patterns
// are too many). Needs build/linear.wasm (make build).

import { beforeAll, describe, expect, it } from 'vitest';
import { loadLinearModule } from '../../src/engine/linear/solve.js';
import { coverBars, type CoverRun } from '../../bench/cover-bars.js';
import { fewestBars } from '../support/bin-packing.js';
import { aboveBoundSet, expectPacking, pieces, problem, randomJob, type Job } from '../support/linear-jobs.js';
import { seededRandom } from '../../bench/seeded.js';

let mod: WebAssembly.Module;
beforeAll(() => {
  mod = loadLinearModule();
});

const WORK = 2e6;
/**
 * Above 1, so that with k = fewest bars on jobs above their bound (gap between 1 and 2) every
 * pattern within the waste room is enumerated and the cover search runs in full.
 */
const GAP = 2;
/** The cover search alone (all the work before the probe), the probe first, and with tilted duals too. */
const RUNS = [{ first: WORK, tilts: 0 }, { first: 0, tilts: 0 }, { first: 0, tilts: 4 }] as const;
let atFound = [0, 0, 0];
let atNodes: number[] = [];

/** Runs the cover with k = fewest - 1 and k = fewest, each of RUNS; returns the runs with fewest - 1. */
function checkCover(job: Job, fewest: number): CoverRun[] {
  const p = problem(job);
  return RUNS.map(({ first, tilts }, f) => {
    const below = coverBars(p, fewest - 1, WORK, GAP, 100_000, mod, first, tilts);
    expect(below.status).not.toBe('found');
    const at = coverBars(p, fewest, WORK, GAP, 100_000, mod, first, tilts);
    expect(at.status).not.toBe('exhausted');
    if (at.status === 'found') expectPacking(job, at.bars, fewest);
    atFound[f]! += at.status === 'found' ? 1 : 0;
    if (f === 0) atNodes.push(at.nodes);
    return below;
  });
}

/** k bars each cut into 2-5 pieces with no waste: k bars is the optimum, and the LP bound. */
function perfectJob(seed: number): { job: Job; k: number } {
  const r = seededRandom(seed);
  const capacity = 100 + Math.floor(r() * 900);
  const k = 6 + Math.floor(r() * 9);
  const counts = new Map<number, number>();
  for (let b = 0; b < k; b++) {
    const cuts = [0, capacity];
    for (let c = 1 + Math.floor(r() * 4); c > 0; c--) cuts.push(1 + Math.floor(r() * (capacity - 1)));
    cuts.sort((x, y) => x - y);
    for (let j = 1; j < cuts.length; j++) {
      const l = cuts[j]! - cuts[j - 1]!;
      if (l > 0) counts.set(l, (counts.get(l) ?? 0) + 1);
    }
  }
  return { job: { capacity, parts: [...counts] }, k };
}

describe('linear reduced-cost cover, against exhaustive search', () => {
  it('never exhausts with a packable bar count, never finds an impossible one, on 300 random jobs', () => {
    let exhausted = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const job = randomJob(seed);
      for (const run of checkCover(job, fewestBars(pieces(job), job.capacity))) exhausted += run.status === 'exhausted' ? 1 : 0;
    }
    // Their fewest bars equal the rounded-up LP bound: one bar fewer is below the LP bound.
    expect(exhausted).toBe(900);
  });

  it('proves jobs whose optimum lies above the rounded-up LP bound, and never wrongly', () => {
    const jobs = aboveBoundSet(mod);
    expect(jobs.length).toBeGreaterThanOrEqual(24);
    const exhausted = [0, 0, 0];
    atFound = [0, 0, 0];
    atNodes = [];
    const nodes: number[] = [];
    const patterns: number[] = [];
    const kept: number[] = [];
    for (const { job, fewest } of jobs) {
      const runs = checkCover(job, fewest);
      runs.forEach((r, f) => { exhausted[f]! += r.status === 'exhausted' ? 1 : 0; });
      const [plain, probed] = runs;
      nodes.push(plain!.nodes);
      patterns.push(plain!.patterns);
      kept.push(probed!.kept);
    }
    console.log(`above-bound jobs: ${jobs.length}, exhausted ${exhausted.join(' / ')} (alone / probe first / and tilted duals), nodes ${nodes.join(' ')}, ` +
      `patterns ${patterns.join(' ')}, kept by the probe ${kept.join(' ')}; with k = fewest found ${atFound.join(' / ')}, nodes ${atNodes.join(' ')}`);
    for (let f = 0; f < RUNS.length; f++) {
      expect(exhausted[f]).toBeGreaterThanOrEqual(Math.ceil(0.8 * jobs.length));
      expect(atFound[f]).toBeGreaterThanOrEqual(Math.ceil(0.8 * jobs.length));
    }
  });

  it('never exhausts on jobs cut from k bars with no waste, and finds most', () => {
    const found = [0, 0, 0];
    const nodes: number[] = [];
    for (let seed = 1; seed <= 60; seed++) {
      const { job, k } = perfectJob(seed);
      RUNS.forEach(({ first, tilts }, f) => {
        // The probe prices thousands of patterns here (every one that fills a bar): less work.
        const run = coverBars(problem(job), k, f === 0 ? WORK : WORK / 10, GAP, 100_000, mod, first, tilts);
        expect(run.status).not.toBe('exhausted');
        if (run.status === 'found') {
          expectPacking(job, run.bars, k);
          found[f]!++;
        }
        if (f === 0) nodes.push(run.nodes);
      });
    }
    console.log(`no-waste jobs: 60, found ${found.join(' / ')} (alone / probe first / and tilted duals), nodes ${nodes.join(' ')}`);
    expect(found[0]).toBeGreaterThanOrEqual(30);
  });
});
