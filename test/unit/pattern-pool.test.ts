// The guillotine search's pattern pool and its recombination (engine-as/sheets/pattern-pool.ts),
// driven through a test entry compiled on its own (engine-as/sheets/pattern-pool-probe.ts):
// constructed patterns whose best cover is known.

import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Probe {
  setMinFill(f: number): void;
  addPart(type: number): void;
  offerPattern(area: number, stockArea: number): number;
  poolSize(): number;
  setDemand(type: number, n: number): void;
  demandOf(type: number): number;
  cover(most: number): number;
  coveredArea(): number;
}

let module: WebAssembly.Module;

beforeAll(() => {
  const out = join(mkdtempSync(join(tmpdir(), 'kerf-pool-')), 'probe.wasm');
  execFileSync('npx', ['asc', 'engine-as/sheets/pattern-pool-probe.ts', '--outFile', out, '--runtime', 'incremental', '--optimizeLevel', '1']);
  module = new WebAssembly.Module(readFileSync(out));
});

/** A fresh instance: one pool, empty demand. */
function probe(): Probe {
  // The pool reads no clock; the engine's shared modules still import one.
  const env = { abort: () => { throw new Error('abort in the pattern pool'); }, now: () => 0 };
  const instance = new WebAssembly.Instance(module, { env });
  return instance.exports as unknown as Probe;
}

function offer(p: Probe, types: number[], area: number, stockArea = 100): boolean {
  for (const t of types) p.addPart(t);
  return p.offerPattern(area, stockArea) !== 0;
}

describe('pattern pool', () => {
  it('keeps one pattern per multiset of parts, and none below its fill threshold', () => {
    const p = probe();
    p.setMinFill(0.8);
    expect(offer(p, [0, 1], 90)).toBe(true);
    expect(offer(p, [1, 0], 92)).toBe(false); // the same parts in another layout
    expect(offer(p, [0, 1, 1], 95)).toBe(true); // another multiset
    expect(offer(p, [2, 3], 70)).toBe(false); // fill 0.7
    expect(p.poolSize()).toBe(2);
  });

  it('recombines two patterns that together beat the largest one, which blocks both', () => {
    const p = probe();
    offer(p, [0, 2], 98); // largest, but shares a part with each of the others
    offer(p, [0, 1], 90);
    offer(p, [2, 3], 95);
    offer(p, [4, 5], 99); // holds parts the demand does not have
    for (const t of [0, 1, 2, 3]) p.setDemand(t, 1);
    expect(p.cover(2)).toBe(2);
    expect(p.coveredArea()).toBe(185); // largest first would stop at 98
    for (const t of [0, 1, 2, 3]) expect(p.demandOf(t)).toBe(0);
  });

  it('never takes more parts of a type than the demand, nor more patterns than allowed', () => {
    const p = probe();
    offer(p, [0, 0], 80);
    offer(p, [0, 1], 60);
    offer(p, [2], 50);
    p.setDemand(0, 1);
    p.setDemand(1, 1);
    p.setDemand(2, 1);
    expect(p.cover(1)).toBe(1);
    expect(p.coveredArea()).toBe(60);
    expect(p.demandOf(0)).toBe(0);
    expect(p.demandOf(1)).toBe(0);
    expect(p.demandOf(2)).toBe(1);
  });
});
