// Long (over 400 lines) because the recursive fill, its band look-ahead and the local search over its settings share the Strip state.
// Strip packing by recursive best fit (rolls: fixed width, shortest length). The roll is cut
// across into bands; each band is a rectangle filled recursively: the part that fits it best
// (exact fits of the rectangle's length or width first, then area) goes into its corner, and
// the two leftover rectangles (beside and above it) are filled the same way. So a band is
// built from combinations of different parts, not copies of its opener. A band's length is
// chosen by look-ahead among the longest remaining parts and lengths that would finish the
// strip (a band taking all the rest wins, else the densest). A local search over part
// weights and split rules repeats the construction while budget and effort last; the
// shortest strip is kept. Then a backtracking search (strip-exact.ts) looks for shorter
// strips from the lower bound up, and ends the run once it reaches the bound. Deterministic
// for the seed when the effort limit ends the run.
//
// Input (f64): Y, kerf, maxPhase (0 = unlimited stages, -1 = free placement: no cuts), seed,
// budgetMs, effort (0 = none), nParts, then per part l, w, q, mask (1: l along the roll,
// 2: rotated). Output: status, length, iterations, length of the first (noise-free) strip,
// node count, length lower bound, then the tree in preorder, NODE_VALUES per node (kind, dir
// or rot, x, y, l, w, part, children; see strip-node.ts), coordinates from the usable corner.
// A free-placement result may be one KIND_FREE root holding its parts.

import { Rng, seedFromF64 } from "../common/rng";
import { now } from "../common/clock";
import { Node, KIND_CUT, KIND_PART, ALONG_X, ALONG_Y, NODE_VALUES, countNodes, writeNode } from "./strip-node";
import { searchShorter } from "./strip-exact";
import { StripTree } from "./strip-tree";
import { PartTypes } from "./strip-types";
import * as F from "../sheets/format";

const EPS: f64 = 1e-9;
/** Band lengths tried per band (longest remaining part extents). */
const LOOKAHEAD: i32 = 4;
/** Effort (candidate evaluations) per unit of `effort` when the run is deterministic. */
const EFFORT_UNIT: f64 = 3e6;
/**
 * Work counted per fill call besides its scan of the part types (allocation, bookkeeping),
 * and per band length tried (the quantities saved and restored): so the effort limit, not
 * the clock, ends the search on small jobs too, whose cost is mostly these.
 */
const FILL_WORK: f64 = 40;
const TRIAL_WORK: f64 = 60;
/**
 * Share of time and effort of the best-fit search; the backtracking search (strip-exact.ts)
 * gets the rest. Guillotine layouts are rarer among its leaves, so it gets less there.
 */
const BEST_FIT_SHARE_FREE: f64 = 0.3;
const BEST_FIT_SHARE_GUILLOTINE: f64 = 0.8;
/** Effort of one backtracking node, in candidate evaluations. */
const TREE_NODE_WORK: f64 = 40;
/**
 * Deepest nesting of fill() (one level per part placed in a region): the shadow stack holds
 * 128 KiB (asconfig.json stackSize), and each level takes about 70 bytes of it.
 */
const MAX_FILL_DEPTH: i32 = 1000;
/** Constructions without a shorter strip that end the local search. */
const STALL_ITERATIONS: i32 = 400;
/** Chance per iteration of a fresh random setting instead of a perturbed one. */
const RESTART: f64 = 0.3;

class Strip {
  Y: f64;
  k: f64;
  maxPhase: i32;
  n: i32;
  pl: Float64Array;
  pw: Float64Array;
  q: Int32Array;
  mask: Int32Array;
  /** Per-run weight of each part in the best-fit score. */
  weight: Float64Array;
  /** Split rule of the run: 0 larger leftover, 1 horizontal first, 2 vertical first. */
  splitRule: i32 = 0;
  smallFirst: bool = false;
  /** Weight of a leftover that some remaining part spans exactly (relative to an exact fit). */
  residualBonus: f64 = 0.5;
  /** Random spread of every choice's score (0: pure best fit). */
  grasp: f64 = 0;
  rng: Rng = new Rng(0);
  /** Remaining copies per part dimension: a leftover of such a size can be filled exactly. */
  dims: Map<f64, i32> = new Map<f64, i32>();
  work: f64 = 0;
  placedArea: f64 = 0;
  end: f64 = 0;
  /** Current nesting of fill(). */
  depth: i32 = 0;
  /** Part area in the last band built (less is closer to dropping that band). */
  tailArea: f64 = 0;

  /** The job's part types (sizes shared; quantities copied, the search uses them up). */
  constructor(Y: f64, k: f64, maxPhase: i32, types: PartTypes) {
    const n = types.n;
    this.Y = Y;
    this.k = k;
    this.maxPhase = maxPhase > 0 ? maxPhase : 1 << 30;
    this.n = n;
    this.pl = types.pl;
    this.pw = types.pw;
    this.q = new Int32Array(n);
    this.mask = types.mask;
    this.weight = new Float64Array(n);
    this.q.set(types.q);
    this.useDimArray();
  }

  /** Whole-number sizes up to this use a counting array instead of the map (a lookup per candidate). */
  dimCount: Int32Array = new Int32Array(0);

  /** Switches dims to a counting array when every part size is a whole number of moderate size. */
  useDimArray(): void {
    let top: f64 = 0;
    for (let t = 0; t < this.n; t++) {
      const l = this.pl[t];
      const w = this.pw[t];
      if (l != Math.floor(l) || w != Math.floor(w)) return;
      top = Math.max(top, Math.max(l, w));
    }
    if (top <= 65536.0) this.dimCount = new Int32Array(<i32>top + 1);
  }

  /** Rebuilds dims from the remaining quantities. */
  countDims(): void {
    this.dims.clear();
    // Only the parts' own sizes are ever counted: clearing those clears the array.
    if (this.dimCount.length > 0) {
      for (let t = 0; t < this.n; t++) {
        unchecked((this.dimCount[<i32>unchecked(this.pl[t])] = 0));
        unchecked((this.dimCount[<i32>unchecked(this.pw[t])] = 0));
      }
    }
    for (let t = 0; t < this.n; t++) {
      const q = unchecked(this.q[t]);
      if (q <= 0) continue;
      this.addDim(unchecked(this.pl[t]), q);
      this.addDim(unchecked(this.pw[t]), q);
    }
  }

  addDim(v: f64, q: i32): void {
    if (this.dimCount.length > 0) {
      unchecked((this.dimCount[<i32>v] += q));
      return;
    }
    const c = this.dims.has(v) ? this.dims.get(v) : 0;
    if (c + q > 0) this.dims.set(v, c + q);
    else this.dims.delete(v);
  }

  /** True when a leftover of size r (kerf included) can be spanned exactly by a remaining part. */
  @inline spannable(r: f64): bool {
    if (r <= EPS) return false;
    const v = r - this.k;
    if (this.dimCount.length > 0) {
      if (v < 0 || v != Math.floor(v) || v >= <f64>this.dimCount.length) return false;
      return load<i32>(this.dimCount.dataStart + (<usize><i32>v << 2)) > 0;
    }
    return this.dims.has(v);
  }

  /** Cut stage of a cut in direction d inside a region made by a cut in direction dir at stage s. */
  stageOf(d: i32, dir: i32, s: i32): i32 {
    return d == dir ? s : s + 1;
  }

  /**
   * Fills region (x, y, a along x, b along y), made by a cut `dir` at `stage`; null = left
   * empty. Each placed part recurses into its leftovers, so a long band of small parts nests
   * deeply: past MAX_FILL_DEPTH the rest of the region stays empty (its parts go to the next
   * band) instead of overflowing the engine's stack.
   */
  fill(x: f64, y: f64, a: f64, b: f64, dir: i32, stage: i32): Node | null {
    if (this.depth >= MAX_FILL_DEPTH) return null;
    this.depth++;
    const node = this.fillRegion(x, y, a, b, dir, stage);
    this.depth--;
    return node;
  }

  fillRegion(x: f64, y: f64, a: f64, b: f64, dir: i32, stage: i32): Node | null {
    const mp = this.maxPhase;
    const sy = this.stageOf(ALONG_Y, dir, stage);
    const sx = this.stageOf(ALONG_X, dir, stage);
    let bestScore: f64 = -1;
    let bt: i32 = -1;
    let bl: f64 = 0;
    let bw: f64 = 0;
    let bRot: i32 = 0;
    let bSplit: i32 = 0; // 0 none, 1 along y only, 2 along x only, 3 V (y then x), 4 H (x then y)
    const area = a * b;
    // Raw reads: typed-array access is a call per element in this runtime, and this scan is the hot loop.
    const qp = this.q.dataStart;
    const mkp = this.mask.dataStart;
    const plp = this.pl.dataStart;
    const pwp = this.pw.dataStart;
    const wtp = this.weight.dataStart;
    let scanned = 0;
    for (let t = 0; t < this.n; t++) {
      if (load<i32>(qp + (<usize>t << 2)) <= 0) continue;
      scanned++;
      const m = load<i32>(mkp + (<usize>t << 2));
      const pl = load<f64>(plp + (<usize>t << 3));
      const pw = load<f64>(pwp + (<usize>t << 3));
      for (let r = 0; r < 2; r++) {
        if ((m & (1 << r)) == 0) continue;
        const l = r == 0 ? pl : pw;
        const w = r == 0 ? pw : pl;
        if (l > a + EPS || w > b + EPS) continue;
        const exA = l >= a - EPS;
        const exB = w >= b - EPS;
        let split = 0;
        if (exA && exB) split = 0;
        else if (exB) {
          if (sy > mp + 1) continue;
          split = 1;
        } else if (exA) {
          if (sx > mp + 1) continue;
          split = 2;
        } else {
          const vOk = sy <= mp;
          const hOk = sx <= mp;
          if (!vOk && !hOk) continue;
          if (vOk && hOk) split = this.chooseSplit(a, b, l, w);
          else split = vOk ? 3 : 4;
        }
        let score = l * w * load<f64>(wtp + (<usize>t << 3));
        if (exA) score += area;
        else if (this.spannable(a - l)) score += area * this.residualBonus;
        if (exB) score += area;
        else if (this.spannable(b - w)) score += area * this.residualBonus;
        if (this.grasp > 0) score *= 1.0 + this.grasp * this.rng.float();
        if (score > bestScore) {
          bestScore = score;
          bt = t;
          bl = l;
          bw = w;
          bRot = r;
          bSplit = split;
        }
      }
    }
    this.work += FILL_WORK + <f64>scanned;
    if (bt < 0) return null;
    unchecked((this.q[bt] -= 1));
    this.addDim(unchecked(this.pl[bt]), -1);
    this.addDim(unchecked(this.pw[bt]), -1);
    this.placedArea += bl * bw;
    if (x + bl > this.end) this.end = x + bl;
    const part = new Node(KIND_PART, bRot, x, y, bl, bw, bt);
    const k = this.k;
    if (bSplit == 0) return part;
    if (bSplit == 1) {
      // Part spans the width: the rest beside it (usable only below the trim stage).
      const right = sy <= mp ? this.fill(x + bl + k, y, a - bl - k, b, ALONG_Y, sy) : null;
      return this.pair(ALONG_Y, x, y, a, b, part, right);
    }
    if (bSplit == 2) {
      const top = sx <= mp ? this.fill(x, y + bw + k, a, b - bw - k, ALONG_X, sx) : null;
      return this.pair(ALONG_X, x, y, a, b, part, top);
    }
    if (bSplit == 3) {
      // Across at x + l, then the part's column along at y + w.
      const s2 = sy + 1;
      let right: Node | null = null;
      let top: Node | null = null;
      if (this.smallFirst) {
        top = s2 <= mp ? this.fill(x, y + bw + k, bl, b - bw - k, ALONG_X, s2) : null;
        right = this.fill(x + bl + k, y, a - bl - k, b, ALONG_Y, sy);
      } else {
        right = this.fill(x + bl + k, y, a - bl - k, b, ALONG_Y, sy);
        top = s2 <= mp ? this.fill(x, y + bw + k, bl, b - bw - k, ALONG_X, s2) : null;
      }
      const col = this.pair(ALONG_X, x, y, bl, b, part, top);
      return this.pair(ALONG_Y, x, y, a, b, col, right);
    }
    // H: along at y + w, then the part's row across at x + l.
    const s2 = sx + 1;
    let right: Node | null = null;
    let top: Node | null = null;
    if (this.smallFirst) {
      right = s2 <= mp ? this.fill(x + bl + k, y, a - bl - k, bw, ALONG_Y, s2) : null;
      top = this.fill(x, y + bw + k, a, b - bw - k, ALONG_X, sx);
    } else {
      top = this.fill(x, y + bw + k, a, b - bw - k, ALONG_X, sx);
      right = s2 <= mp ? this.fill(x + bl + k, y, a - bl - k, bw, ALONG_Y, s2) : null;
    }
    const row = this.pair(ALONG_Y, x, y, a, bw, part, right);
    return this.pair(ALONG_X, x, y, a, b, row, top);
  }

  /** 3 (across first) or 4 (along first) for a part l x w in a region a x b. */
  chooseSplit(a: f64, b: f64, l: f64, w: f64): i32 {
    if (this.splitRule == 1) return 4;
    if (this.splitRule == 2) return 3;
    // Keep the larger leftover rectangle whole.
    const v = Math.max((a - l) * b, l * (b - w));
    const h = Math.max(a * (b - w), (a - l) * w);
    return v >= h ? 3 : 4;
  }

  /** A cut node over (x, y, a, b) with `first` and an optional second child; one child stands alone. */
  pair(dir: i32, x: f64, y: f64, a: f64, b: f64, first: Node, second: Node | null): Node {
    if (second === null) return first;
    const node = new Node(KIND_CUT, dir, x, y, a, b, -1);
    this.adopt(node, first);
    this.adopt(node, second!);
    return node;
  }

  /** Appends child; a cut in the same direction is merged into this one (same stage). */
  adopt(node: Node, child: Node): void {
    if (child.kind == KIND_CUT && child.dir == node.dir) {
      for (let i = 0; i < child.children.length; i++) node.children.push(child.children[i]);
    } else node.children.push(child);
  }
}

/**
 * One complete strip: bands chosen by look-ahead; returns the root (bands along x). Besides
 * the longest part extents, each band is tried at the lengths that would finish the strip:
 * the rest's area bound, a random length above it, and the length that would just beat
 * `target` (the best strip so far). A band that takes every remaining part ends the strip.
 */
function construct(s: Strip, rng: Rng, target: f64, step: f64, stopAt: f64): Node | null {
  const n = s.n;
  s.countDims();
  const root = new Node(KIND_CUT, ALONG_Y, 0, 0, 0, s.Y, -1);
  const saved = new Int32Array(n);
  const cand = new Float64Array(LOOKAHEAD + 3);
  let at: f64 = 0;
  for (;;) {
    // Past the deadline a strip is dropped half built (the first one always finishes).
    if (now() >= stopAt) return null;
    // Candidate band lengths: the longest distinct extents along the roll of remaining parts.
    let nc = 0;
    let rest: f64 = 0;
    for (let t = 0; t < n; t++) {
      const q = unchecked(s.q[t]);
      if (q <= 0) continue;
      rest += <f64>q * unchecked(s.pl[t]) * unchecked(s.pw[t]);
      for (let r = 0; r < 2; r++) {
        if ((unchecked(s.mask[t]) & (1 << r)) == 0) continue;
        const l = r == 0 ? unchecked(s.pl[t]) : unchecked(s.pw[t]);
        const w = r == 0 ? unchecked(s.pw[t]) : unchecked(s.pl[t]);
        if (w > s.Y + EPS) continue;
        nc = insertTop(cand, nc, LOOKAHEAD, l);
      }
    }
    if (nc == 0) break;
    const longest = cand[0];
    let bound = rest / s.Y;
    if (step >= 1) bound = Math.ceil(bound - EPS);
    const finish = target - step - at;
    if (bound > longest + EPS && bound < finish - EPS) {
      cand[nc++] = bound;
      let mid = bound + rng.float() * (finish - bound);
      if (step >= 1) mid = Math.floor(mid);
      if (mid > bound + EPS && mid < finish - EPS) cand[nc++] = mid;
    }
    if (finish > longest + EPS && isFinite(finish)) cand[nc++] = finish;
    for (let t = 0; t < n; t++) unchecked((saved[t] = s.q[t]));
    let bestLen: f64 = cand[0];
    let bestDensity: f64 = -1;
    let bestFinish: f64 = Infinity;
    for (let c = 0; c < nc; c++) {
      const len = cand[c];
      s.placedArea = 0;
      s.end = at;
      s.fill(at, 0, len, s.Y, ALONG_Y, 1);
      const used = s.end - at;
      const d = used > 0 ? s.placedArea / (used * s.Y) : 0;
      if (s.placedArea >= rest * (1 - 1e-12)) {
        // Takes the whole rest: the shortest such band wins outright.
        if (used < bestFinish) {
          bestFinish = used;
          bestLen = len;
        }
      } else if (bestFinish == Infinity && d > bestDensity + EPS) {
        bestDensity = d;
        bestLen = len;
      }
      for (let t = 0; t < n; t++) unchecked((s.q[t] = saved[t]));
      s.countDims();
      s.work += TRIAL_WORK + <f64>n;
    }
    s.end = at;
    s.placedArea = 0;
    const band = s.fill(at, 0, bestLen, s.Y, ALONG_Y, 1);
    if (band === null) break;
    s.tailArea = s.placedArea;
    const used = s.end - at;
    clampX(band!, at + used);
    s.adopt(root, band);
    at += used + s.k;
  }
  root.l = at > 0 ? at - s.k : 0;
  return root;
}

/** Keeps the `cap` largest distinct values in cand[0..n) sorted descending; returns the new count. */
function insertTop(cand: Float64Array, n: i32, cap: i32, v: f64): i32 {
  for (let i = 0; i < n; i++) if (Math.abs(cand[i] - v) <= EPS) return n;
  let i = n < cap ? n : cap - 1;
  if (n == cap && v <= cand[i]) return n;
  while (i > 0 && cand[i - 1] < v) {
    cand[i] = cand[i - 1];
    i--;
  }
  cand[i] = v;
  return n < cap ? n + 1 : n;
}

/** Cuts nodes off at x = end (no part reaches past it). */
function clampX(node: Node, end: f64): void {
  if (node.kind == KIND_PART) return;
  if (node.x + node.l > end) node.l = end - node.x;
  for (let i = 0; i < node.children.length; i++) clampX(node.children[i], end);
}

/** The construction's free parameters (see Strip). */
class Params {
  weight: Float64Array;
  splitRule: i32 = 0;
  smallFirst: bool = false;
  residualBonus: f64 = 0.5;
  grasp: f64 = 0;
  constructor(n: i32) {
    this.weight = new Float64Array(n);
  }
  plain(): void {
    this.weight.fill(1.0);
    this.splitRule = 0;
    this.smallFirst = false;
    this.residualBonus = 0.5;
    this.grasp = 0;
  }
  random(rng: Rng): void {
    const noise = 0.05 + 0.6 * rng.float();
    for (let t = 0; t < this.weight.length; t++) this.weight[t] = 1.0 + noise * rng.float();
    this.splitRule = rng.int(3);
    this.smallFirst = rng.int(2) == 1;
    this.residualBonus = rng.float();
    this.grasp = rng.float() < 0.5 ? 0.0 : 0.3 * rng.float();
  }
  copy(o: Params): void {
    this.weight.set(o.weight);
    this.splitRule = o.splitRule;
    this.smallFirst = o.smallFirst;
    this.residualBonus = o.residualBonus;
    this.grasp = o.grasp;
  }
  /** o with one to three part weights redrawn and, rarely, one rule changed. */
  perturb(o: Params, rng: Rng): void {
    this.copy(o);
    const n = this.weight.length;
    const m = 1 + rng.int(3);
    for (let i = 0; i < m; i++) this.weight[rng.int(n)] = 1.0 + 0.6 * rng.float();
    const r = rng.float();
    if (r < 0.05) this.splitRule = rng.int(3);
    else if (r < 0.1) this.smallFirst = !this.smallFirst;
    else if (r < 0.15) this.residualBonus = rng.float();
  }
  apply(s: Strip): void {
    s.weight.set(this.weight);
    s.splitRule = this.splitRule;
    s.smallFirst = this.smallFirst;
    s.residualBonus = this.residualBonus;
    s.grasp = this.grasp;
  }
}

export function solveStrip(input: Float64Array): Float64Array {
  if (input.length < F.S_HEADER_LEN) return errorOut();
  const Y = input[F.S_WIDTH];
  const k = input[F.S_KERF];
  const maxPhase = <i32>input[F.S_MAXPHASE];
  const free = maxPhase < 0;
  const started = now();
  const deadline = started + Math.max(0.0, input[F.S_BUDGET]);
  const effort = input[F.S_EFFORT];
  const n = <i32>input[F.S_NPARTS];
  if (!(Y > 0) || !(k >= 0) || n < 0 || input.length < F.S_HEADER_LEN + F.S_PART_STRIDE * n) return errorOut();
  const types = new PartTypes(input, F.S_HEADER_LEN, n);
  const nt = types.n;
  // Free placement: the best-fit strips are guillotine layouts with any number of stages.
  const s = new Strip(Y, k, free ? 0 : maxPhase, types);
  const q0 = types.q;
  const seed = seedFromF64(input[F.S_SEED]);
  const rng = new Rng(seed);
  s.rng = new Rng(seed + 1);
  const work = effort > 0 ? EFFORT_UNIT * effort : Infinity;
  // The best-fit search gets the first share of time and effort, the backtracking search the rest.
  const share = free ? BEST_FIT_SHARE_FREE : BEST_FIT_SHARE_GUILLOTINE;
  const limit = work * share;
  const bestFitEnd = started + (deadline - started) * share;
  const tree = new StripTree(Y, k, s.pl, s.pw, q0, s.mask);
  const lowerBound = tree.lowerBound();
  // Integral data: lengths improve in whole units; otherwise by a small fraction.
  let integral = Y == Math.floor(Y) && k == Math.floor(k);
  for (let i = 0; i < nt; i++) integral = integral && s.pl[i] == Math.floor(s.pl[i]) && s.pw[i] == Math.floor(s.pw[i]);
  let best: Node | null = null;
  let first: f64 = 0;
  let iterations = 0;
  // Local search over the construction's parameters: perturb a few part weights of the
  // accepted setting (now and then a fresh random one); keep it when the strip is not
  // longer and its last band holds no more. The first run is pure best fit.
  const cur = new Params(nt);
  const trial = new Params(nt);
  let curLen: f64 = Infinity;
  let curTail: f64 = Infinity;
  let lastGain = 0;
  let clocked = false;
  // A long stall hands the rest of the share to the backtracking search: small jobs then
  // finish by effort, not by the clock (deterministic), and searches get the time they need.
  while (best === null || (s.work < limit && now() < bestFitEnd && best.l > lowerBound + EPS && iterations - lastGain < STALL_ITERATIONS)) {
    s.q.set(q0);
    if (iterations == 0) trial.plain();
    else if (rng.float() < RESTART) trial.random(rng);
    else trial.perturb(cur, rng);
    trial.apply(s);
    const target = best === null ? Infinity : best.l;
    const step = integral ? 1.0 : best === null ? 0.0 : 1e-4 * best.l;
    const built = construct(s, rng, target, step, best === null ? Infinity : bestFitEnd);
    if (built === null) {
      clocked = true;
      break;
    }
    const root = built!;
    if (iterations == 0) first = root.l;
    iterations++;
    if (best === null || root.l < best.l - EPS) {
      best = root;
      lastGain = iterations;
    }
    if (root.l < curLen - EPS || (root.l <= curLen + EPS && s.tailArea <= curTail)) {
      cur.copy(trial);
      curLen = root.l;
      curTail = s.tailArea;
    }
  }
  let b = best!;
  // The best fit ended on its share of the clock while effort, bound and stall let it go on.
  if (!clocked && s.work < limit && b.l > lowerBound + EPS && iterations - lastGain < STALL_ITERATIONS) clocked = true;
  // Every part placed by the best fit (parts wider than the roll never reach here).
  if (b.l > lowerBound + EPS) {
    const nodeBudget = (work - s.work) / TREE_NODE_WORK;
    const exact = searchShorter(tree, Y, k, maxPhase, b.l, deadline, nodeBudget, seed + 2);
    if (exact.root !== null && exact.length < b.l - EPS) b = exact.root!;
    // Ending at or past the deadline counts as cut by it (a search that finished just then too).
    if (now() >= deadline) clocked = true;
  }
  types.assignParts(b);
  const nodes = countNodes(b);
  const out = new Float64Array(F.SO_HEADER + NODE_VALUES * nodes);
  out[F.SO_STATUS] = 0;
  out[F.SO_LENGTH] = b.l;
  out[F.SO_ITERATIONS] = <f64>iterations;
  out[F.SO_FIRST] = first;
  out[F.SO_NODES] = <f64>nodes;
  out[F.SO_LOWER_BOUND] = lowerBound;
  out[F.SO_DEADLINE] = clocked ? 1.0 : 0.0;
  writeNode(out, F.SO_HEADER, b);
  return out;
}

function errorOut(): Float64Array {
  const out = new Float64Array(1);
  out[F.SO_STATUS] = 1;
  return out;
}
