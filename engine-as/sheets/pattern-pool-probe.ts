// Test entry, part of no engine: test/unit/pattern-pool.test.ts compiles it on its own to
// drive the pattern pool (pattern-pool.ts) with constructed patterns through scalar calls.

import { PatternPool } from "./pattern-pool";
import { Sheet } from "./solution";
import { NODE_STRIDE, N_KIND, N_ITEM, KIND_PART } from "./layout";

const TYPES: i32 = 64;
const pool = new PatternPool(64);
const demand = new Int32Array(TYPES);
let parts = new Array<i32>();
let out = new Array<Sheet>();

export function setMinFill(f: f64): void {
  pool.minFill = f;
}

/** Adds a part of `type` to the pattern being built. */
export function addPart(type: i32): void {
  parts.push(type);
}

/** Ends the pattern being built as a sheet of `stockArea` whose parts cover `area`; true when the pool kept it. */
export function offerPattern(area: f64, stockArea: f64): bool {
  const nodes = new Float64Array(parts.length * NODE_STRIDE);
  for (let i = 0; i < parts.length; i++) {
    nodes[i * NODE_STRIDE + N_KIND] = <f64>KIND_PART;
    nodes[i * NODE_STRIDE + N_ITEM] = <f64>parts[i];
  }
  const kept = pool.offer(new Sheet(0, nodes, area, parts.length, stockArea, 0));
  parts = new Array<i32>();
  return kept;
}

export function poolSize(): i32 {
  return pool.size;
}

export function setDemand(type: i32, n: i32): void {
  demand[type] = n;
}

export function demandOf(type: i32): i32 {
  return demand[type];
}

/** Runs the recombination for at most `most` sheets; returns how many patterns it took. */
export function cover(most: i32): i32 {
  out = new Array<Sheet>();
  return pool.takeBestCover(demand, most, out);
}

/** Part area of the patterns the last cover took. */
export function coveredArea(): f64 {
  let a: f64 = 0;
  for (let i = 0; i < out.length; i++) a += out[i].placedArea;
  return a;
}
