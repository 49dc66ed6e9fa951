// BPPLIB's cutting-stock files and bounds, read from /work/shared at run time (licence
// CC BY-NC-ND: internal evaluation only, never copied into the project).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LinearProblem } from '../src/engine/linear/solve.js';

export const BPPLIB_DIR = process.env.BENCH_LINEAR_DIR ?? '/work/shared/bench/instances/1d-bpplib';

/** Bounds_BPPLib.jl_2021.txt: instance name to its lower and upper bound (empty when absent). */
export function readBounds(dir = BPPLIB_DIR): Map<string, { lb: number; ub: number }> {
  const map = new Map<string, { lb: number; ub: number }>();
  const file = join(dir, 'Bounds_BPPLib.jl_2021.txt');
  if (!existsSync(file)) return map;
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const [name, lb, ub] = line.trim().split('\t');
    if (name && lb && ub) map.set(name, { lb: Number(lb), ub: Number(ub) });
  }
  return map;
}

/** The proven optimum of an instance (its bounds meet); throws when it is not known. */
export function knownOptimum(name: string, dir = BPPLIB_DIR): number {
  const b = readBounds(dir).get(name);
  if (!b || b.lb !== b.ub) throw new Error(`no known optimum for ${name}`);
  return b.lb;
}

/** CSP format: m, capacity, then m lines "weight<TAB>demand" (demand 1 when absent). */
export function readInstance(file: string): { capacity: number; items: { w: number; d: number }[] } {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const m = Number(lines[0]);
  const capacity = Number(lines[1]);
  const items = lines.slice(2, 2 + m).map((l) => {
    const [w, d] = l.split(/\s+/).map(Number);
    return { w: w!, d: d ?? 1 };
  });
  return { capacity, items };
}

/** An instance as the engine's problem: one bar length, unlimited, no kerf, fewest bars. */
export function instanceProblem(file: string): LinearProblem {
  const { capacity, items } = readInstance(file);
  return {
    stock: [{ usable: capacity, q: -1, cost: 0 }],
    parts: items.map(({ w, d }) => ({ l: w, q: d, stock: [0] })),
    kerf: 0, objective: 'count', stockSelection: 'efficiency', seed: 1, budgetMs: 0,
  };
}
