// Genome: what a constructive run is told. A priority key per item type (lower = packed
// earlier), a preferred orientation per type, and the look-ahead of the fill rule. Search
// moves only reshape genomes; the geometry lives in the filler.

import { Instance, AXIS_X } from "../sheets/instance";
import { Rng } from "../common/rng";

/** Number of base orderings (see ruleValue). */
export const RULES: i32 = 6;
export const ORIENT_FLAT: i32 = 0; // shorter side across the first-stage cuts: low strips
export const ORIENT_TALL: i32 = 1; // longer side across: high strips, many parts per strip
export const ORIENT_RANDOM: i32 = 2;

export class Genome {
  key: Float64Array;
  prefRot: Int32Array;
  /** Fill look-ahead: candidates compared when filling a strip or stack (1 = first fit). */
  K: i32 = 1;
  /** Strip look-ahead: first-stage openers tried per strip (1 = take the first that fits). */
  strips: i32 = 1;
  /** Look-ahead inside bands: openers of pieces/stacks tried per band (1 = FIT only). */
  stacks: i32 = 1;
  /** Fill last-stage stacks by a knapsack over the remaining height instead of FIT. */
  dp: bool = false;
  /** Also try bands several opener extents thick (see Filler.bestBand). */
  wide: bool = false;
  /** Fill a band with copies of its opener first (strategy 'time': fewer cuts). */
  sameFirst: bool = false;

  constructor(nTypes: i32) {
    this.key = new Float64Array(nTypes > 0 ? nTypes : 1);
    this.prefRot = new Int32Array(nTypes > 0 ? nTypes : 1);
  }
}

/** Orientation that puts the part's shorter (flat) or longer (tall) side across the first cuts. */
function orientFor(inst: Instance, t: i32, mode: i32, rng: Rng): i32 {
  const l = unchecked(inst.tL[t]);
  const w = unchecked(inst.tW[t]);
  if (mode == ORIENT_RANDOM) return rng.int(2);
  // Across the first cuts is y when they run along x: rot 0 gives y = w, rot 1 gives y = l.
  const acrossRot0 = inst.firstDir == AXIS_X ? w : l;
  const alongRot0 = inst.firstDir == AXIS_X ? l : w;
  const flat0 = acrossRot0 <= alongRot0;
  if (mode == ORIENT_FLAT) return flat0 ? 0 : 1;
  return flat0 ? 1 : 0;
}

/** Sort value (bigger = earlier) of type t under rule r, in its preferred orientation. */
function ruleValue(inst: Instance, t: i32, r: i32, rot: i32, scale: f64): f64 {
  const l = unchecked(inst.tL[t]);
  const w = unchecked(inst.tW[t]);
  const lo = Math.min(l, w);
  const hi = Math.max(l, w);
  const ex = rot == 0 ? l : w;
  const ey = rot == 0 ? w : l;
  const across = inst.firstDir == AXIS_X ? ey : ex;
  const along = inst.firstDir == AXIS_X ? ex : ey;
  const tie = 1.0 / (scale * 4.0 + 4.0); // secondary key well below one unit of the primary
  switch (r) {
    case 0:
      return l * w + hi * tie; // area
    case 1:
      return hi + lo * tie; // longest side
    case 2:
      return across + along * tie; // strip height (FFDH-like)
    case 3:
      return l + w + hi * tie; // perimeter
    case 4:
      return along + across * tie; // length along the strip
    default:
      return lo + hi * tie; // shorter side
  }
}

/**
 * Writes keys and orientations for `types[0..n)` under rule `rule`. `noise` in [0, 1)
 * multiplies each value by a random factor in [1 - noise, 1 + noise] to diversify. K and
 * strips set the filler's look-ahead (see Genome).
 */
export function shapeGenome(
  g: Genome,
  inst: Instance,
  types: Int32Array,
  n: i32,
  rule: i32,
  orient: i32,
  noise: f64,
  K: i32,
  strips: i32,
  stacks: i32,
  rng: Rng,
): void {
  let scale: f64 = 1.0;
  for (let i = 0; i < n; i++) {
    const t = unchecked(types[i]);
    scale = Math.max(scale, Math.max(unchecked(inst.tL[t]), unchecked(inst.tW[t])));
  }
  for (let i = 0; i < n; i++) {
    const t = unchecked(types[i]);
    const rot = orientFor(inst, t, orient, rng);
    let v = ruleValue(inst, t, rule, rot, scale);
    if (noise > 0) v *= 1.0 + noise * (2.0 * rng.float() - 1.0);
    unchecked((g.key[t] = -v));
    unchecked((g.prefRot[t] = rot));
  }
  g.dp = false;
  g.wide = false;
  g.sameFirst = inst.timeStrategy;
  g.K = K < 1 ? 1 : K;
  g.strips = strips < 1 ? 1 : strips;
  g.stacks = stacks < 1 ? 1 : stacks;
}
