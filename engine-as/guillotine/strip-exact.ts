// Shorter strips by backtracking (StripTree, strip-tree.ts). Each round runs one exhaustive
// attempt at the shortest length not yet searched in full (first the lower bound), whose node
// limit doubles per round, and spends as many nodes on dives (randomised descents with a
// little backtracking) one step below the best length so far. An attempt that searches its
// whole tree moves the exhaustive attempts one step up; a layout found by one is the
// shortest this search can find and ends it, as does reaching the best length so far (small
// jobs end early, by nodes, not by the clock). Guillotine jobs keep only layouts guillotineTree
// accepts (within the stage limit); free placement keeps any. Attempts after the first at a
// length spread the branch order at random (seeded), which breaks the long unlucky runs a
// fixed order has.

import { Rng } from "../common/rng";
import { now } from "../common/clock";
import { Node } from "./strip-node";
import { StripTree, FOUND, EXHAUSTED, STOPPED } from "./strip-tree";
import { Placed, guillotineTree, freeRoot } from "./strip-cuts";

/** Node limit of the first exact attempt at the bound (doubles every round), per part and at least. */
const EXACT_NODES_PER_PART: i64 = 8;
const EXACT_MIN_NODES: i64 = 2000;
/** Node limit of one dive (a randomised descent with a little backtracking), per part and at least. */
const DIVE_NODES_PER_PART: i64 = 12;
const DIVE_MIN_NODES: i64 = 100;
/** Branch order spread of the randomised attempts. */
const NOISE: f64 = 0.3;

export class ExactResult {
  root: Node | null = null;
  length: f64 = Infinity;
  lowerBound: f64 = 0;
  nodes: i64 = 0;
}

/**
 * Searches `tree` (the job on a roll of usable width Y, kerf k) for a layout shorter than
 * `upper`. maxPhase < 0: free placement; otherwise guillotine with that many stages (0 =
 * unlimited). Every round spends about as many nodes on an exhaustive search at the shortest
 * length not yet searched in full (the least slack, so pruning is strongest; its node limit
 * doubles per round) as on dives one unit (integral data; else 1/1000) below the best length
 * so far. Stops when that length is found or reaches the best, at the deadline or after
 * `nodeBudget` nodes (deterministic for the seed when that ends it).
 */
export function searchShorter(tree: StripTree, Y: f64, k: f64, maxPhase: i32, upper: f64, deadline: f64, nodeBudget: f64, seed: u64): ExactResult {
  const res = new ExactResult();
  tree.rng = new Rng(seed);
  tree.maxPhase = maxPhase;
  const lb = tree.lowerBound();
  res.lowerBound = lb;
  if (tree.total == 0 || tree.unplaceable() || !(upper > lb)) return res;
  const step = tree.integral ? 1.0 : Math.max(1e-6, 1e-3 * upper);
  const ps = new Array<Placed>();
  let exactLimit = max<i64>(EXACT_MIN_NODES, EXACT_NODES_PER_PART * <i64>tree.total);
  const diveLimit = max<i64>(DIVE_MIN_NODES, DIVE_NODES_PER_PART * <i64>tree.total);
  let best = upper;
  // Length of the exhaustive attempts: the bound, raised past every length searched in full.
  let exactL = lb;
  let round = 0;
  while (now() < deadline && <f64>tree.nodes + 1 <= nodeBudget) {
    // Every length below the best was searched in full: nothing shorter to find.
    if (exactL >= best - step * 0.5) break;
    const roundStart = tree.nodes;
    tree.noise = round == 0 ? 0.0 : NOISE;
    const r = attempt(tree, ps, exactL, exactLimit, nodeBudget, deadline, Y, k, maxPhase, res);
    // The shortest length not ruled out: none shorter can follow.
    if (r == FOUND) break;
    if (r == EXHAUSTED) {
      // Searched in full (a proof at the bound when it leaves no slack): the next length up.
      exactL = tree.integral ? exactL + 1.0 : exactL + step;
      round = 0;
      continue;
    }
    // Dives below the best so far, as many nodes as the exact attempt had.
    const spent = tree.nodes;
    tree.noise = NOISE;
    while (tree.nodes - spent < exactLimit && now() < deadline && <f64>tree.nodes + 1 <= nodeBudget) {
      let L = best - step;
      if (tree.integral) L = Math.ceil(L - 1e-9);
      if (L < lb + step * 0.5) break;
      const before = tree.nodes;
      if (attempt(tree, ps, L, diveLimit, nodeBudget, deadline, Y, k, maxPhase, res) == FOUND) best = res.length;
      // Ruled out at the root: no dive at this length can start.
      else if (tree.nodes == before) break;
    }
    // No dive can start.
    if (tree.nodes == roundStart) break;
    exactLimit <<= 1;
    round++;
  }
  res.nodes = tree.nodes;
  return res;
}

/** One search at length L within `limit` nodes; a layout it finds (and the guillotine check accepts) goes to res. */
function attempt(
  tree: StripTree, ps: Array<Placed>, L: f64, limit: i64, nodeBudget: f64, deadline: f64,
  Y: f64, k: f64, maxPhase: i32, res: ExactResult,
): i32 {
  const room = Math.min(<f64>limit, nodeBudget - <f64>tree.nodes);
  if (room < 1) return STOPPED;
  if (!tree.start(L, <i64>room, deadline)) return EXHAUSTED;
  let r = tree.next();
  while (r == FOUND) {
    const root = layoutOf(tree, ps, Y, k, maxPhase);
    if (root !== null) {
      res.root = root;
      res.length = root.l;
      return FOUND;
    }
    r = tree.next();
  }
  return r;
}

/** The found layout as a tree: guillotine cuts (null if it has none within maxPhase) or a free root. */
function layoutOf(tree: StripTree, ps: Array<Placed>, Y: f64, k: f64, maxPhase: i32): Node | null {
  const n = tree.total;
  const t = new Int32Array(n);
  const o = new Int32Array(n);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const c = tree.placements(t, o, x, y);
  // Each shape's placements go to its input parts in turn.
  const taken = new Int32Array(tree.nt);
  const left = new Int32Array(tree.memberPart.length);
  ps.length = 0;
  let end: f64 = 0;
  for (let i = 0; i < c; i++) {
    const s = t[i];
    const code = 2 * s + o[i];
    const a = tree.ex[code];
    const b = tree.ey[code];
    let m = tree.memberStart[s] + taken[s];
    // Members hold their quantity in order: skip those already used up.
    while (left[m] >= tree.memberQ[m]) {
      m++;
      taken[s]++;
    }
    left[m]++;
    const rot = o[i] ^ <i32>tree.memberTurned[m];
    ps.push(new Placed(x[i], y[i], a, b, tree.memberPart[m], rot));
    end = Math.max(end, x[i] + a);
  }
  const W = Y + k;
  if (maxPhase < 0) return freeRoot(ps, end, W, k);
  return guillotineTree(ps, end, W, k, maxPhase);
}
