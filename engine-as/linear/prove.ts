// Long (over 400 lines) because the proof's LP, its pricing and its search tree share the node's branching state.
// A proof that a one-stock-row job needs more than k bars, for when the best plan is one bar
// above the rounded-up LP bound: a complete branch-and-price with Ryan-Foster branching.
// Rows are single pieces (demand 1 each), columns sets of pieces that fit a bar. A node
// either keeps two pieces together (every column holds both or neither) or apart (no column
// holds both); every packing into k bars lies in one of the two children, so a tree whose
// every leaf has an LP bound above k proves that no k-bar packing exists.
// The LP is a revised simplex with a dense basis inverse over all pieces at every node: a
// column a node forbids keeps its place but costs FORBIDDEN, so a child starts from its
// parent's basis, still primal feasible, and the primal simplex drives such columns out.
// Pricing is a branch-and-bound knapsack over the node's groups of pieces kept together,
// with the pairs kept apart as conflicts. Every bound is a Farley bound (duals scaled by the
// best column's value), valid whatever the basis, so a node is pruned as soon as it exceeds k.
// Subset-row cuts (subset-row.ts) lift the LP: for a triple S of pieces, the bars holding two
// or more of S sum to at most 1. A k-bar packing is a partition of the pieces (a piece in
// two bars can leave one, its group with it, and the node's rules still hold), so it keeps
// every cut: the LP with cuts still bounds it. Cut j is a row with a slack, dual sigma_j <= 0.
// The Farley bound with cuts: take y >= 0 (pieces' duals clipped) and sigma <= 0 (cuts'
// duals clipped), V the largest value of a column the node allows, sum of y over its pieces
// plus sigma_j for each cut with two of its pieces in it (at least 1: the pricing starts
// there). Then (y, sigma) / V meets every column's dual constraint, so it is a dual solution
// of the node's LP and its value (sum y + sum sigma) / V is below the LP and below any
// packing. The pricing finds V exactly: its knapsack charges sigma_j when a second piece of S
// comes in, and its fill bound, which leaves the charges out, stays above the true value
// (charges are <= 0), so pruning with it is safe.
// Cuts come in rounds at the root while the LP rises, and a few rounds at each node; a
// node's cuts are dropped when its subtree is done, so each saved basis matches its rows.
// New cuts leave the basis dual feasible but their slacks negative: a dual simplex over the
// pool restores feasibility (each group's own column is in the pool, a packing that keeps
// every cut), and when it fails the round is dropped.

import { Instance } from "./instance";
import { Bar } from "./plan";
import { Master } from "./master";
import { sizeOrder } from "./heuristic";
import { I32Vec } from "../common/arrays";
import { findRoot } from "../common/union-find";
import { now } from "../common/clock";
import { invert, perturbation, subScaledRow } from "./dense";
import { HASH_START, hashStep } from "../common/hash";
import { separateTriples, tripleKey } from "./subset-row";

export const PROOF_PROVEN: i32 = 0;
/** A packing into k bars was found (see Prover.found). */
export const PROOF_FOUND: i32 = 1;
/** Out of effort or time, or the LP could not go on: nothing is claimed. */
export const PROOF_OPEN: i32 = 2;

/** Cost of a column the node forbids: above any bar count the LP can reach. */
const FORBIDDEN: f64 = 1e4;
const RC_TOL: f64 = 1e-9;
const PIV_TOL: f64 = 1e-9;
/** The dual simplex's least pivot (restoreFeasibility). */
const DUAL_PIV_TOL: f64 = 1e-7;
/** An LP above k by more than this proves the node. */
const BOUND_TOL: f64 = 1e-6;
const REFACTOR_EVERY: i32 = 100;
/** Simplex iterations a node may take before the proof gives up (a safeguard against cycling). */
const MAX_NODE_PIVOTS: i32 = 20000;
/** Saved basis inverses (one per depth) may take this many bytes; deeper nodes refactor. */
const SAVED_BYTES: f64 = 64e6;
/** Subset-row cuts in the LP at once (the root's and those of the nodes on the path), and per round. */
const MAX_CUTS: i32 = 300;
const CUTS_PER_ROUND: i32 = 30;
/** At most one cut per this many pieces: many cuts over few pieces stall the simplex. */
const CUT_PIECES: i32 = 2;
const ROOT_ROUNDS: i32 = 50;
const NODE_ROUNDS: i32 = 3;
/** A round of cuts must lift the LP by this much for another round to follow. */
const MIN_RISE: f64 = 1e-4;
/** Dual simplex pivots per row after new cuts before the round is dropped. */
const DUAL_PIVOTS_PER_ROW: i32 = 4;

/** What solving a node's LP found. */
const LP_PRUNED: i32 = 0;
const LP_INTEGER: i32 = 1;
const LP_NEEDS_BRANCH: i32 = 2;
const LP_GAVE_UP: i32 = 3;

export class Prover {
  inst: Instance;
  t: i32;
  n: i32 = 0;
  /** Rows of the LP: the n pieces, then one per subset-row cut. */
  m: i32 = 0;
  /** Piece p is one of item pieceItem[p], of length size[p] (pieces by decreasing length). */
  pieceItem: Int32Array = new Int32Array(0);
  firstPiece: Int32Array = new Int32Array(0);
  size: Float64Array = new Float64Array(0);
  cap: f64;
  k: i32 = 0;
  // Column pool: pieces colPiece[colStart[c] .. colStart[c + 1]).
  colStart: I32Vec = new I32Vec(256);
  colPiece: I32Vec = new I32Vec(1024);
  seen: Map<u64, i32> = new Map<u64, i32>();
  valid: Uint8Array = new Uint8Array(256);
  // Subset-row cuts (subset-row.ts): cut j is the triple cutPiece[3j .. 3j + 3), row n + j.
  // Column c holds two or more pieces of the cuts colCut[colCutStart[c] .. colCutStart[c + 1]).
  cutPiece: I32Vec = new I32Vec(48);
  cutKnown: Map<i64, bool> = new Map<i64, bool>();
  colCutStart: I32Vec = new I32Vec(256);
  colCut: I32Vec = new I32Vec(256);
  /** The cuts of piece p: pieceCut[pieceCutStart[p] .. pieceCutStart[p + 1]). */
  pieceCutStart: Int32Array = new Int32Array(0);
  pieceCut: Int32Array = new Int32Array(0);
  cutCount: Int32Array = new Int32Array(MAX_CUTS);
  /** Pricing: a cut's dual clipped at 0 (a penalty), and the cuts of each group as in pieceCut. */
  sigma: Float64Array = new Float64Array(MAX_CUTS);
  groupCutStart: Int32Array = new Int32Array(0);
  groupCut: Int32Array = new Int32Array(3 * MAX_CUTS);
  // Basis: column per row (>= 0) or -(r + 1) for the surplus of piece row r (r < n) or the
  // slack of cut row r (r >= n).
  binv: Float64Array = new Float64Array(0);
  basis: Int32Array = new Int32Array(0);
  cB: Float64Array = new Float64Array(0);
  xB: Float64Array = new Float64Array(0);
  b: Float64Array = new Float64Array(0);
  y: Float64Array = new Float64Array(0);
  u: Float64Array = new Float64Array(0);
  sincePivot: i32 = 0;
  // Branching decisions on the path to the node: pieces decA/decB, together (1) or apart (0).
  decA: I32Vec = new I32Vec(64);
  decB: I32Vec = new I32Vec(64);
  decT: I32Vec = new I32Vec(64);
  // The node's groups: group[p] is the representative piece of p's group.
  group: Int32Array = new Int32Array(0);
  groupSize: Int32Array = new Int32Array(0);
  groupLen: Float64Array = new Float64Array(0);
  /** conflict[g * n + h]: representatives g and h kept apart. */
  conflict: Uint8Array = new Uint8Array(0);
  /** The same as lists: the groups kept apart from g are confList[confStart[g] .. confStart[g + 1]). */
  confStart: Int32Array = new Int32Array(0);
  confFill: Int32Array = new Int32Array(0);
  confList: Int32Array = new Int32Array(16);
  // Pricing scratch.
  items: Int32Array = new Int32Array(0);
  value: Float64Array = new Float64Array(0);
  blocked: Int32Array = new Int32Array(0);
  chosen: Int32Array = new Int32Array(0);
  bestSet: Int32Array = new Int32Array(0);
  nBest: i32 = 0;
  /** The dual ratio test's pick (dualRatio): the entering column and its reduced cost. */
  dualEnter: i32 = 0;
  dualRc: f64 = 0;
  /** The node's basis before a round of cuts. */
  held: Int32Array = new Int32Array(0);
  bestValue: f64 = 0;
  mark: Uint8Array = new Uint8Array(0);
  together: Float64Array = new Float64Array(0);
  scratch: Float64Array = new Float64Array(0);
  // Saved states per depth.
  savedBinv: Array<Float64Array> = new Array<Float64Array>();
  savedBasis: Array<Int32Array> = new Array<Int32Array>();
  // Effort and outcome.
  nodes: i32 = 0;
  pivots: i32 = 0;
  pricingNodes: f64 = 0;
  maxNodes: i32 = 0;
  maxPricingNodes: f64 = 0;
  deadline: f64 = 0;
  timedOut: bool = false;
  /** The bars of a k-bar packing, when one was found. */
  found: Array<Bar> = new Array<Bar>();

  constructor(inst: Instance, t: i32, pieces: i32) {
    this.inst = inst;
    this.t = t;
    this.cap = inst.cap[t] + inst.eps;
    const n = pieces;
    this.n = n;
    this.pieceItem = new Int32Array(n);
    this.size = new Float64Array(n);
    // Pieces by decreasing length, an item's pieces next to each other from firstPiece[i].
    const order = sizeOrder(inst);
    this.firstPiece = new Int32Array(inst.nI);
    let p: i32 = 0;
    for (let o = 0; o < order.length; o++) {
      const i = order[o];
      this.firstPiece[i] = inst.dem[i] > 0 ? p : -1;
      for (let c = 0; c < inst.dem[i]; c++) {
        this.pieceItem[p] = i;
        this.size[p] = inst.size[i];
        p++;
      }
    }
    // The LP's rows: one per piece (cuts grow them later).
    this.m = 0;
    this.grow(n);
    this.group = new Int32Array(n);
    this.groupSize = new Int32Array(n);
    this.groupLen = new Float64Array(n);
    this.conflict = new Uint8Array(n * n);
    this.confStart = new Int32Array(n + 1);
    this.confFill = new Int32Array(n);
    this.items = new Int32Array(n);
    this.value = new Float64Array(n);
    this.blocked = new Int32Array(n);
    this.chosen = new Int32Array(n);
    this.bestSet = new Int32Array(n);
    this.mark = new Uint8Array(n);
    this.together = new Float64Array(n * n);
    this.colStart.push(0);
    this.colCutStart.push(0);
    this.pieceCutStart = new Int32Array(n + 1);
    this.groupCutStart = new Int32Array(n + 1);
    this.held = new Int32Array(n + MAX_CUTS);
  }

  /** Pieces needed: the total demand of the job. */
  static pieces(inst: Instance): i32 {
    let n: i32 = 0;
    for (let i = 0; i < inst.nI; i++) n += inst.dem[i];
    return n;
  }

  /**
   * Adds a pattern given as item counts (c pieces of item i: the item's first c pieces) to
   * the pool: the search's columns and plans are good columns to start from.
   */
  seedPattern(items: Int32Array, counts: Int32Array, len: i32): void {
    const set = new Array<i32>();
    let load: f64 = 0;
    for (let a = 0; a < len; a++) {
      const p0 = this.firstPiece[items[a]];
      if (p0 < 0) return;
      for (let c = 0; c < counts[a]; c++) {
        const p = p0 + c;
        if (p >= this.n || this.pieceItem[p] != items[a]) return;
        set.push(p);
        load += this.size[p];
      }
    }
    if (set.length == 0 || load > this.cap) return;
    this.addColumn(set);
  }

  /** Adds every pattern of the LP's pool: the LP's columns are good ones to start from. */
  seedFromPool(mp: Master): void {
    const items = new Int32Array(this.inst.nI);
    const counts = new Int32Array(this.inst.nI);
    for (let p = 0; p < mp.poolSize; p++) {
      const s = mp.patStart.data[p], e = mp.patStart.data[p + 1];
      for (let a = s; a < e; a++) {
        items[a - s] = mp.patItem.data[a];
        counts[a - s] = mp.patCnt.data[a];
      }
      this.seedPattern(items, counts, e - s);
    }
  }

  private addColumn(set: Array<i32>): i32 {
    set.sort((a: i32, b: i32): i32 => a - b);
    let h = HASH_START;
    for (let a = 0; a < set.length; a++) h = hashStep(h, <u64>set[a]);
    if (this.seen.has(h)) {
      const c = this.seen.get(h);
      if (this.sameColumn(c, set)) return c;
    }
    const c = this.colStart.len - 1;
    for (let a = 0; a < set.length; a++) this.colPiece.push(set[a]);
    this.colStart.push(this.colPiece.len);
    this.pushColumnCuts(c);
    this.seen.set(h, c);
    if (this.valid.length <= c) {
      const v = new Uint8Array(this.valid.length << 1);
      v.set(this.valid);
      this.valid = v;
    }
    this.valid[c] = 1;
    return c;
  }

  /** Appends column c's cuts (those of which it holds two or more pieces) to colCut. */
  private pushColumnCuts(c: i32): void {
    const s = this.colStart.data[c], e = this.colStart.data[c + 1];
    const cnt = this.cutCount;
    for (let a = s; a < e; a++) {
      const p = this.colPiece.data[a];
      for (let q = this.pieceCutStart[p]; q < this.pieceCutStart[p + 1]; q++) {
        const j = this.pieceCut[q];
        if (++cnt[j] == 2) this.colCut.push(j);
      }
    }
    for (let a = s; a < e; a++) {
      const p = this.colPiece.data[a];
      for (let q = this.pieceCutStart[p]; q < this.pieceCutStart[p + 1]; q++) cnt[this.pieceCut[q]] = 0;
    }
    this.colCutStart.push(this.colCut.len);
  }

  /** A column's duals: its pieces' and its cuts'. */
  @inline private columnValue(c: i32): f64 {
    let v: f64 = 0;
    const e = this.colStart.data[c + 1];
    for (let a = this.colStart.data[c]; a < e; a++) v += unchecked(this.y[this.colPiece.data[a]]);
    const ce = this.colCutStart.data[c + 1];
    for (let a = this.colCutStart.data[c]; a < ce; a++) v += unchecked(this.y[this.n + this.colCut.data[a]]);
    return v;
  }

  /** u = B^-1 times the column of `enter` (a pool column, a surplus or a cut's slack). */
  private entering(enter: i32): void {
    const m = this.m;
    const u = this.u;
    const binv = this.binv;
    if (enter >= 0) {
      for (let k = 0; k < m; k++) u[k] = 0;
      const e = this.colStart.data[enter + 1];
      for (let a = this.colStart.data[enter]; a < e; a++) {
        const r = this.colPiece.data[a];
        for (let k = 0; k < m; k++) unchecked((u[k] += binv[k * m + r]));
      }
      const ce = this.colCutStart.data[enter + 1];
      for (let a = this.colCutStart.data[enter]; a < ce; a++) {
        const r = this.n + this.colCut.data[a];
        for (let k = 0; k < m; k++) unchecked((u[k] += binv[k * m + r]));
      }
    } else {
      const r = -enter - 1;
      const sign: f64 = r < this.n ? -1.0 : 1.0;
      for (let k = 0; k < m; k++) u[k] = sign * binv[k * m + r];
    }
  }

  private sameColumn(c: i32, set: Array<i32>): bool {
    const s = this.colStart.data[c], e = this.colStart.data[c + 1];
    if (e - s != set.length) return false;
    for (let a = 0; a < set.length; a++) if (this.colPiece.data[s + a] != set[a]) return false;
    return true;
  }

  /**
   * Tries to prove that no packing into k bars exists, from the tree's root, within maxNodes
   * more tree nodes, maxPricingNodes knapsack nodes in all, and the deadline. May run again
   * (with a larger node budget): the column pool and the root's cuts carry over.
   */
  run(plan: Array<Bar>, k: i32, maxNodes: i32, maxPricingNodes: f64, deadline: f64): i32 {
    this.k = k;
    this.maxNodes = this.nodes + maxNodes;
    this.maxPricingNodes = maxPricingNodes;
    this.deadline = deadline;
    this.decA.clear();
    this.decB.clear();
    this.decT.clear();
    if (this.n == 0 || !this.startFrom(plan)) return PROOF_OPEN;
    return this.node(0);
  }

  /**
   * The first basis: the plan's bars, each basic on the row of its piece with the largest
   * (perturbed) demand, every other row basic in its surplus (then non-negative): a permuted
   * triangular basis, never singular, as good as the plan.
   */
  private startFrom(plan: Array<Bar>): bool {
    const n = this.n;
    // A plan is a packing: it keeps every cut, so the cuts' slacks start basic and non-negative.
    for (let r = 0; r < this.m; r++) this.basis[r] = -(r + 1);
    // Pieces of each item handed out in order.
    const next = this.firstPiece.slice();
    for (let q = 0; q < plan.length; q++) {
      const bar = plan[q];
      const set = new Array<i32>();
      for (let j = 0; j < bar.n; j++) {
        const i = bar.items[j];
        const p = next[i];
        if (p < 0 || p >= n || this.pieceItem[p] != i) return false;
        set.push(p);
        next[i] = p + 1;
      }
      if (set.length == 0) continue;
      let row = set[0];
      for (let a = 1; a < set.length; a++) if (this.b[set[a]] > this.b[row]) row = set[a];
      this.basis[row] = this.addColumn(set);
    }
    this.sincePivot = REFACTOR_EVERY;
    return true;
  }

  /** Solves a node's LP, prunes or branches on a pair of groups; returns the outcome of its subtree. */
  private node(depth: i32): i32 {
    if (++this.nodes > this.maxNodes) return PROOF_OPEN;
    this.setGroups();
    let st = this.solveLp();
    const m0 = this.m;
    // Rounds of cuts while the LP rises; when the dual simplex fails, the node goes on from
    // its LP before the round, without the round's cuts.
    let z = this.objective();
    for (let round = 0; st == LP_NEEDS_BRANCH && round < (depth == 0 ? ROOT_ROUNDS : NODE_ROUNDS); round++) {
      const before = this.m;
      this.held.set(this.basis.subarray(0, before));
      const cuts = this.addCuts();
      if (cuts == 0) break;
      if (cuts < 0 || !this.restoreFeasibility()) {
        this.dropCuts(before);
        this.basis.set(this.held.subarray(0, before));
        if (!this.refactor()) st = LP_GAVE_UP;
        break;
      }
      st = this.solveLp();
      const z2 = this.objective();
      if (z2 < z + MIN_RISE) break;
      z = z2;
    }
    const r = st == LP_NEEDS_BRANCH ? this.branchOn(depth) : st == LP_PRUNED ? PROOF_PROVEN : st == LP_INTEGER ? PROOF_FOUND : PROOF_OPEN;
    // The root's cuts stay for later runs; a node's go with its subtree.
    if (depth > 0) this.dropCuts(m0);
    return r;
  }

  /** Ryan-Foster on a pair of groups the LP keeps together only in part. */
  private branchOn(depth: i32): i32 {
    const pair = this.branchPair();
    if (pair < 0) return PROOF_OPEN;
    const a = pair / this.n, c = pair % this.n;
    this.save(depth);
    for (let side = 1; side >= 0; side--) {
      if (side == 0) this.restore(depth);
      this.decA.push(a);
      this.decB.push(c);
      this.decT.push(side);
      const r = this.node(depth + 1);
      this.decA.len--;
      this.decB.len--;
      this.decT.len--;
      if (r != PROOF_PROVEN) return r;
    }
    return PROOF_PROVEN;
  }

  /** Groups (union of pieces kept together), conflicts between groups, and column validity. */
  private setGroups(): void {
    const n = this.n;
    const g = this.group;
    for (let p = 0; p < n; p++) g[p] = p;
    for (let d = 0; d < this.decA.len; d++) {
      if (this.decT.data[d] == 0) continue;
      const ra = findRoot(this.group, this.decA.data[d]), rb = findRoot(this.group, this.decB.data[d]);
      if (ra != rb) g[ra < rb ? rb : ra] = ra < rb ? ra : rb;
    }
    for (let p = 0; p < n; p++) g[p] = findRoot(this.group, p);
    for (let p = 0; p < n; p++) {
      this.groupSize[p] = 0;
      this.groupLen[p] = 0;
    }
    for (let p = 0; p < n; p++) {
      this.groupSize[g[p]]++;
      this.groupLen[g[p]] += this.size[p];
    }
    this.conflict.fill(0);
    const start = this.confStart;
    start.fill(0);
    for (let d = 0; d < this.decA.len; d++) {
      if (this.decT.data[d] != 0) continue;
      const ra = g[this.decA.data[d]], rb = g[this.decB.data[d]];
      if (this.conflict[ra * n + rb] != 0) continue;
      this.conflict[ra * n + rb] = 1;
      this.conflict[rb * n + ra] = 1;
      start[ra + 1]++;
      start[rb + 1]++;
    }
    // Each group's conflicts as a list (the pricing walks them at every knapsack node).
    for (let p = 0; p < n; p++) start[p + 1] += start[p];
    if (this.confList.length < start[n]) this.confList = new Int32Array(start[n] * 2);
    for (let p = 0; p < n; p++) this.confFill[p] = start[p];
    for (let ga = 0; ga < n; ga++) {
      if (g[ga] != ga || start[ga + 1] == start[ga]) continue;
      for (let gb = 0; gb < n; gb++) if (this.conflict[ga * n + gb] != 0) this.confList[this.confFill[ga]++] = gb;
    }
    const nc = this.colStart.len - 1;
    for (let c = 0; c < nc; c++) this.valid[c] = this.allowed(c) ? 1 : 0;
    for (let k = 0; k < this.m; k++) {
      const col = this.basis[k];
      if (col >= 0) this.cB[k] = this.valid[col] != 0 ? 1.0 : FORBIDDEN;
    }
  }

  /** A column the node allows: whole groups only, no two groups kept apart. */
  private allowed(c: i32): bool {
    const n = this.n;
    const s = this.colStart.data[c], e = this.colStart.data[c + 1];
    const g = this.group;
    // Count the column's pieces per group in `blocked` (scratch), then compare with the groups.
    let ok = true;
    for (let a = s; a < e; a++) this.blocked[g[this.colPiece.data[a]]]++;
    for (let a = s; a < e && ok; a++) {
      const ga = g[this.colPiece.data[a]];
      if (this.blocked[ga] != this.groupSize[ga]) ok = false;
      for (let b = a + 1; b < e && ok; b++) if (this.conflict[ga * n + g[this.colPiece.data[b]]] != 0) ok = false;
    }
    for (let a = s; a < e; a++) this.blocked[g[this.colPiece.data[a]]] = 0;
    return ok;
  }

  /** The LP's value at its basis. */
  private objective(): f64 {
    let z: f64 = 0;
    for (let k = 0; k < this.m; k++) if (this.basis[k] >= 0) z += this.cB[k] * this.xB[k];
    return z;
  }

  private computeX(): void {
    const m = this.m;
    for (let k = 0; k < m; k++) {
      let v: f64 = 0;
      const o = k * m;
      for (let r = 0; r < m; r++) v += unchecked(this.binv[o + r]) * unchecked(this.b[r]);
      this.xB[k] = v;
    }
  }

  private computeY(): void {
    const m = this.m;
    for (let r = 0; r < m; r++) this.y[r] = 0;
    for (let k = 0; k < m; k++) {
      const c = this.cB[k];
      if (c == 0) continue;
      const o = k * m;
      for (let r = 0; r < m; r++) unchecked((this.y[r] += c * this.binv[o + r]));
    }
  }

  /**
   * The primal simplex with column generation at a node. Returns LP_PRUNED (bound above k),
   * LP_INTEGER (a k-bar packing, in `found`), LP_NEEDS_BRANCH or LP_GAVE_UP.
   */
  private solveLp(): i32 {
    const n = this.n;
    if (this.sincePivot >= REFACTOR_EVERY) {
      if (!this.refactor()) return LP_GAVE_UP;
    } else this.computeY();
    for (let iter: i32 = 0; ; iter++) {
      if ((iter & 15) == 15 && now() >= this.deadline) {
        this.timedOut = true;
        return LP_GAVE_UP;
      }
      if (iter > MAX_NODE_PIVOTS) return LP_GAVE_UP;
      if (this.sincePivot >= REFACTOR_EVERY) {
        if (!this.refactor()) return LP_GAVE_UP;
      }
      let enter: i32 = -2147483647;
      let best: f64 = -RC_TOL;
      // A piece's surplus prices at y, a cut's slack at -y.
      for (let r = 0; r < this.m; r++) {
        const rc = r < n ? this.y[r] : -this.y[r];
        if (rc < best) {
          best = rc;
          enter = -(r + 1);
        }
      }
      const nc = this.colStart.len - 1;
      for (let c = 0; c < nc; c++) {
        if (this.valid[c] == 0) continue;
        const rc = 1.0 - this.columnValue(c);
        if (rc < best) {
          best = rc;
          enter = c;
        }
      }
      if (enter == -2147483647) {
        // Pricing: the best column under the node's groups and conflicts, and the Farley bound.
        if (!this.price()) return LP_GAVE_UP;
        let dual: f64 = 0;
        for (let r = 0; r < n; r++) if (this.y[r] > 0) dual += this.y[r];
        for (let r = n; r < this.m; r++) if (this.y[r] < 0) dual += this.y[r];
        const bound = dual / Math.max(1.0, this.bestValue);
        if (bound > <f64>this.k + BOUND_TOL) return LP_PRUNED;
        if (this.bestValue <= 1.0 + RC_TOL) return this.settle();
        const set = new Array<i32>();
        for (let a = 0; a < this.nBest; a++) {
          const g = this.bestSet[a];
          for (let p = 0; p < n; p++) if (this.group[p] == g) set.push(p);
        }
        enter = this.addColumn(set);
        this.valid[enter] = 1;
        best = 1.0 - this.bestValue;
      }
      if (!this.pivotIn(enter, best)) return LP_GAVE_UP;
    }
    return LP_GAVE_UP;
  }

  /** Brings column `enter` into the basis; false when the ratio test finds no row (numerical trouble). */
  private pivotIn(enter: i32, rc: f64): bool {
    const m = this.m;
    const u = this.u;
    this.entering(enter);
    let l: i32 = -1;
    let ratio: f64 = Infinity;
    for (let k = 0; k < m; k++) {
      if (u[k] > PIV_TOL) {
        const q = this.xB[k] / u[k];
        if (q < ratio - 1e-12 || (q < ratio + 1e-12 && l >= 0 && u[k] > u[l])) {
          ratio = q;
          l = k;
        }
      }
    }
    if (l < 0) return false;
    this.pivotAt(enter, rc, l);
    return true;
  }

  /** Column `enter` (u = B^-1 a, reduced cost rc) replaces the basic column of row l. */
  private pivotAt(enter: i32, rc: f64, l: i32): void {
    const m = this.m;
    const u = this.u;
    const binv = this.binv;
    const piv = u[l];
    const ratio = this.xB[l] / piv;
    const ol = l * m;
    for (let r = 0; r < m; r++) unchecked((binv[ol + r] /= piv));
    const rowL = binv.dataStart + (<usize>ol << 3);
    for (let k = 0; k < m; k++) {
      if (k == l) continue;
      const f = unchecked(u[k]);
      if (f == 0) continue;
      subScaledRow(binv.dataStart + (<usize>(k * m) << 3), rowL, f, 0, m, true);
      unchecked((this.xB[k] -= f * ratio));
    }
    this.xB[l] = ratio;
    const cost: f64 = enter >= 0 ? (this.valid[enter] != 0 ? 1.0 : FORBIDDEN) : 0.0;
    this.basis[l] = enter;
    this.cB[l] = cost;
    this.pivots++;
    this.sincePivot++;
    // y' = y + rc * (row l of the new inverse): O(m), not O(m^2).
    for (let r = 0; r < m; r++) unchecked((this.y[r] += rc * binv[ol + r]));
  }

  /** Rebuilds the basis inverse from the basic columns (Gauss-Jordan, partial pivoting). */
  private refactor(infeasible: bool = false): bool {
    const n = this.n, m = this.m;
    const a = this.scratch;
    a.fill(0);
    for (let k = 0; k < m; k++) {
      const col = this.basis[k];
      if (col >= 0) {
        const e = this.colStart.data[col + 1];
        for (let q = this.colStart.data[col]; q < e; q++) a[this.colPiece.data[q] * m + k] = 1.0;
        const ce = this.colCutStart.data[col + 1];
        for (let q = this.colCutStart.data[col]; q < ce; q++) a[(n + this.colCut.data[q]) * m + k] = 1.0;
      } else {
        const r = -col - 1;
        a[r * m + k] = r < n ? -1.0 : 1.0;
      }
    }
    if (!invert(a, this.binv, m)) return false;
    this.sincePivot = 0;
    this.computeX();
    // After new cuts (infeasible), their slacks may be negative until restoreFeasibility.
    if (!infeasible) for (let k = 0; k < m; k++) if (this.xB[k] < -1e-7) return false; else if (this.xB[k] < 0) this.xB[k] = 0;
    this.computeY();
    return true;
  }

  /**
   * The node's LP is optimal and at most k: a k-bar packing when its solution is whole,
   * else a branching is needed.
   */
  private settle(): i32 {
    const n = this.n, m = this.m;
    let whole = true;
    for (let k = 0; k < m; k++) {
      const col = this.basis[k];
      const x = this.xB[k];
      if (col < 0 || x <= 1e-6) continue;
      if (this.valid[col] == 0) return LP_GAVE_UP;
      if (Math.abs(x - 1.0) > 1e-6) whole = false;
    }
    if (!whole) return LP_NEEDS_BRANCH;
    // Whole columns cover every piece: each piece goes into the first bar that holds it.
    this.mark.fill(0);
    this.found.length = 0;
    for (let k = 0; k < m; k++) {
      const col = this.basis[k];
      if (col < 0 || this.xB[k] <= 1e-6) continue;
      const bar = new Bar(this.t);
      const e = this.colStart.data[col + 1];
      for (let a = this.colStart.data[col]; a < e; a++) {
        const p = this.colPiece.data[a];
        if (this.mark[p] != 0) continue;
        this.mark[p] = 1;
        bar.add(this.pieceItem[p], this.size[p]);
      }
      if (bar.n > 0) this.found.push(bar);
    }
    for (let p = 0; p < n; p++) if (this.mark[p] == 0) return LP_GAVE_UP;
    return this.found.length <= this.k ? LP_INTEGER : LP_PRUNED;
  }

  /**
   * The pair of groups (as a * n + c) whose together-value (the LP's bars holding both) is
   * fractional, the one with the largest (length of the two groups)^2 x distance from whole:
   * long pieces first cut the tree far more than the pair closest to one half, and among
   * long pairs the less settled one; -1 when there is none.
   */
  private branchPair(): i32 {
    const n = this.n;
    const tg = this.together;
    const touched = new Array<i32>();
    for (let k = 0; k < this.m; k++) {
      const col = this.basis[k];
      const x = this.xB[k];
      if (col < 0 || x <= 1e-9) continue;
      const s = this.colStart.data[col], e = this.colStart.data[col + 1];
      for (let a = s; a < e; a++) {
        const ga = this.group[this.colPiece.data[a]];
        for (let b = a + 1; b < e; b++) {
          const gb = this.group[this.colPiece.data[b]];
          if (ga == gb) continue;
          const key = ga < gb ? ga * n + gb : gb * n + ga;
          if (tg[key] == 0) touched.push(key);
          // A column holds each of the two groups whole: count the pair once, not once per two pieces.
          tg[key] += x / <f64>(this.groupSize[ga] * this.groupSize[gb]);
        }
      }
    }
    let pick: i32 = -1;
    let bestScore: f64 = 0;
    for (let q = 0; q < touched.length; q++) {
      const key = touched[q];
      const v = tg[key];
      if (v < 1e-6 || v > 1.0 - 1e-6) continue;
      const len = this.groupLen[key / n] + this.groupLen[key % n];
      const score = len * len * Math.min(v, 1.0 - v);
      if (score > bestScore || (score == bestScore && key < pick)) {
        bestScore = score;
        pick = key;
      }
    }
    for (let q = 0; q < touched.length; q++) tg[touched[q]] = 0;
    return pick;
  }

  /**
   * The most valuable column (duals y, clipped at 0) under the node's groups and conflicts,
   * by branch and bound over groups by value per length; bestValue is its value (or 1 when
   * none is worth more). False when the knapsack effort runs out.
   */
  private price(): bool {
    const n = this.n;
    let m: i32 = 0;
    for (let p = 0; p < n; p++) this.value[p] = 0;
    for (let p = 0; p < n; p++) if (this.y[p] > 0) this.value[this.group[p]] += this.y[p];
    for (let g = 0; g < n; g++) {
      if (this.group[g] != g || this.value[g] <= 1e-12 || this.groupLen[g] > this.cap) continue;
      this.items[m++] = g;
    }
    // By value per length, decreasing (insertion sort: m is a few hundred at most).
    const items = this.items;
    for (let a = 1; a < m; a++) {
      const v = items[a];
      const rv = this.value[v] / this.groupLen[v];
      let j = a - 1;
      while (j >= 0 && this.value[items[j]] / this.groupLen[items[j]] < rv) {
        items[j + 1] = items[j];
        j--;
      }
      items[j + 1] = v;
    }
    this.groupCuts();
    this.bestValue = 1.0 + RC_TOL;
    this.nBest = 0;
    for (let g = 0; g < n; g++) this.blocked[g] = 0;
    this.branch(0, m, this.cap, 0.0, 0);
    if (this.pricingNodes > this.maxPricingNodes) return false;
    if (this.nBest == 0) this.bestValue = 1.0;
    return true;
  }

  private branch(from: i32, m: i32, room: f64, val: f64, depth: i32): void {
    if (++this.pricingNodes > this.maxPricingNodes) return;
    // The knapsack can take long on its own: it watches the deadline too.
    if ((<i64>this.pricingNodes & 4095) == 0 && now() >= this.deadline) {
      this.timedOut = true;
      this.maxPricingNodes = this.pricingNodes - 1;
      return;
    }
    if (val > this.bestValue) {
      this.bestValue = val;
      this.nBest = depth;
      for (let a = 0; a < depth; a++) this.bestSet[a] = this.chosen[a];
    }
    if (this.fill(from, m, room, val) <= this.bestValue + 1e-12) return;
    for (let a = from; a < m; a++) {
      const g = this.items[a];
      if (this.blocked[g] != 0 || this.groupLen[g] > room) continue;
      this.chosen[depth] = g;
      const cs = unchecked(this.confStart[g]), ce = unchecked(this.confStart[g + 1]);
      for (let q = cs; q < ce; q++) unchecked(this.blocked[this.confList[q]]++);
      // A cut's penalty is due once the column holds two of its pieces.
      let pen: f64 = 0;
      const ks = unchecked(this.groupCutStart[g]), ke = unchecked(this.groupCutStart[g + 1]);
      for (let q = ks; q < ke; q++) {
        const j = unchecked(this.groupCut[q]);
        if (unchecked(this.cutCount[j]++) == 1) pen += unchecked(this.sigma[j]);
      }
      this.branch(a + 1, m, room - this.groupLen[g], val + this.value[g] + pen, depth + 1);
      for (let q = ks; q < ke; q++) unchecked(this.cutCount[this.groupCut[q]]--);
      for (let q = cs; q < ce; q++) unchecked(this.blocked[this.confList[q]]--);
      if (this.pricingNodes > this.maxPricingNodes) return;
      // The bound without g and the items before it.
      if (this.fill(a + 1, m, room, val) <= this.bestValue + 1e-12) return;
    }
  }

  /**
   * The cuts whose duals are below 0 (penalties sigma), listed per group (a cut appears
   * once per piece of the group in it), for the pricing; the knapsack's counts at 0.
   */
  private groupCuts(): void {
    const n = this.n;
    const start = this.groupCutStart;
    start.fill(0);
    const nCuts = this.m - n;
    for (let j = 0; j < nCuts; j++) {
      this.cutCount[j] = 0;
      this.sigma[j] = Math.min(0.0, this.y[n + j]);
      if (this.sigma[j] > -1e-12) continue;
      for (let a = 0; a < 3; a++) start[this.group[this.cutPiece.data[3 * j + a]] + 1]++;
    }
    for (let g = 0; g < n; g++) start[g + 1] += start[g];
    for (let g = 0; g < n; g++) this.confFill[g] = start[g];
    for (let j = 0; j < nCuts; j++) {
      if (this.sigma[j] > -1e-12) continue;
      for (let a = 0; a < 3; a++) {
        const g = this.group[this.cutPiece.data[3 * j + a]];
        this.groupCut[this.confFill[g]++] = j;
      }
    }
  }

  /**
   * Separates subset-row cuts from the LP's solution and adds the most broken (at most
   * CUTS_PER_ROUND, MAX_CUTS in all) as rows with their slacks basic: the basis stays dual
   * feasible, but the slacks of the broken cuts are negative. The cuts added, or -1 when
   * the new basis is singular.
   */
  private addCuts(): i32 {
    const n = this.n;
    const have = this.m - n;
    const most = min(CUTS_PER_ROUND, min(MAX_CUTS, n / CUT_PIECES) - have);
    if (most <= 0) return 0;
    const cols = new Int32Array(this.m);
    const xs = new Float64Array(this.m);
    let nCols: i32 = 0;
    for (let k = 0; k < this.m; k++) {
      if (this.basis[k] < 0 || this.xB[k] <= 1e-9) continue;
      cols[nCols] = this.basis[k];
      xs[nCols++] = this.xB[k];
    }
    const added = separateTriples(n, this.colStart, this.colPiece, cols, xs, nCols, this.together, most, this.cutPiece, this.cutKnown);
    this.together.fill(0);
    if (added == 0) return 0;
    for (let j = have; j < have + added; j++) {
      const a = this.cutPiece.data[3 * j], b = this.cutPiece.data[3 * j + 1], c = this.cutPiece.data[3 * j + 2];
      this.cutKnown.set(tripleKey(n, a, b, c), true);
    }
    // Each group alone: with them the pool always holds a packing that keeps every cut.
    for (let g = 0; g < n; g++) {
      if (this.group[g] != g) continue;
      const set = new Array<i32>();
      for (let p = g; p < n; p++) if (this.group[p] == g) set.push(p);
      const c = this.addColumn(set);
      this.valid[c] = 1;
    }
    this.grow(n + have + added);
    this.listCuts();
    return this.refactor(true) ? added : -1;
  }

  /** Room for m2 rows (arrays only grow): the basis as it was, each new row's slack basic. */
  private grow(m2: i32): void {
    const m = this.m;
    if (m2 > this.basis.length) {
      const basis = new Int32Array(m2);
      basis.set(this.basis.subarray(0, m));
      const cB = new Float64Array(m2);
      cB.set(this.cB.subarray(0, m));
      this.basis = basis;
      this.cB = cB;
      this.b = new Float64Array(m2);
      for (let r = 0; r < m2; r++) this.b[r] = 1.0 + perturbation(r);
      this.xB = new Float64Array(m2);
      this.y = new Float64Array(m2);
      this.u = new Float64Array(m2);
      this.binv = new Float64Array(m2 * m2);
      this.scratch = new Float64Array(m2 * m2);
    }
    for (let r = m; r < m2; r++) {
      this.basis[r] = -(r + 1);
      this.cB[r] = 0;
    }
    this.m = m2;
  }

  /** Drops the cuts after the first m0 - n (those a node added for its subtree). */
  private dropCuts(m0: i32): void {
    if (this.m == m0) return;
    const n = this.n;
    for (let j = m0 - n; j < this.m - n; j++) {
      this.cutKnown.delete(tripleKey(n, this.cutPiece.data[3 * j], this.cutPiece.data[3 * j + 1], this.cutPiece.data[3 * j + 2]));
    }
    this.cutPiece.len = 3 * (m0 - n);
    this.m = m0;
    this.listCuts();
  }

  /** The pieces' lists of cuts and every column's cuts, after the cuts changed. */
  private listCuts(): void {
    const n = this.n;
    const ps = this.pieceCutStart;
    ps.fill(0);
    const total = this.m - n;
    for (let q = 0; q < 3 * total; q++) ps[this.cutPiece.data[q] + 1]++;
    for (let p = 0; p < n; p++) ps[p + 1] += ps[p];
    if (this.pieceCut.length < 3 * total) this.pieceCut = new Int32Array(3 * MAX_CUTS);
    const fill = ps.slice(0, n);
    for (let q = 0; q < 3 * total; q++) this.pieceCut[fill[this.cutPiece.data[q]]++] = q / 3;
    this.colCut.clear();
    this.colCutStart.clear();
    this.colCutStart.push(0);
    const nc = this.colStart.len - 1;
    for (let c = 0; c < nc; c++) this.pushColumnCuts(c);
  }

  /**
   * The dual simplex over the pool's columns until every basic value is non-negative again
   * (after new cuts): the row with the most negative value leaves, the column that keeps
   * every reduced cost non-negative enters. The pool holds each group's own column
   * (addCuts), a packing that keeps every cut, so a row always finds one. False on trouble
   * or after DUAL_PIVOTS_PER_ROW x m pivots.
   */
  private restoreFeasibility(): bool {
    const m = this.m;
    for (let iter: i32 = 0; iter < DUAL_PIVOTS_PER_ROW * m; iter++) {
      if (this.sincePivot >= REFACTOR_EVERY && !this.refactor(true)) return false;
      let l: i32 = -1;
      let low: f64 = -1e-9;
      for (let k = 0; k < m; k++) {
        if (this.xB[k] < low) {
          low = this.xB[k];
          l = k;
        }
      }
      if (l < 0) return true;
      // Harris's ratio test: the largest |alpha| among the columns whose ratio is within a
      // tolerance of the least (tiny pivots make the basis singular).
      const most = this.dualRatio(l, Infinity);
      if (most == Infinity) return false;
      this.dualRatio(l, most);
      const enter = this.dualEnter;
      this.entering(enter);
      if (this.u[l] >= -DUAL_PIV_TOL) return false;
      this.pivotAt(enter, this.dualRc, l);
    }
    return false;
  }

  /**
   * One pass of the dual ratio test on row l: alpha = (row l of B^-1) . column < 0 over the
   * surpluses, slacks and the node's columns. With limit Infinity, returns the least
   * (reduced cost + tolerance) / |alpha|; else picks (dualEnter, dualRc) the column of the
   * largest |alpha| whose ratio is at most limit.
   */
  private dualRatio(l: i32, limit: f64): f64 {
    const n = this.n, m = this.m;
    const binv = this.binv;
    const ol = l * m;
    let most: f64 = Infinity;
    let bestA: f64 = 0;
    for (let r = 0; r < m; r++) {
      const alpha = r < n ? -binv[ol + r] : binv[ol + r];
      if (alpha >= -DUAL_PIV_TOL) continue;
      const rc = Math.max(0.0, r < n ? this.y[r] : -this.y[r]);
      if (limit == Infinity) most = Math.min(most, (rc + RC_TOL) / -alpha);
      else if (rc / -alpha <= limit && -alpha > bestA) {
        bestA = -alpha;
        this.dualEnter = -(r + 1);
        this.dualRc = r < n ? this.y[r] : -this.y[r];
      }
    }
    const nc = this.colStart.len - 1;
    for (let c = 0; c < nc; c++) {
      if (this.valid[c] == 0) continue;
      let alpha: f64 = 0;
      const e = this.colStart.data[c + 1];
      for (let a = this.colStart.data[c]; a < e; a++) alpha += unchecked(binv[ol + this.colPiece.data[a]]);
      const ce = this.colCutStart.data[c + 1];
      for (let a = this.colCutStart.data[c]; a < ce; a++) alpha += unchecked(binv[ol + n + this.colCut.data[a]]);
      if (alpha >= -DUAL_PIV_TOL) continue;
      const rc = 1.0 - this.columnValue(c);
      const rc0 = Math.max(0.0, rc);
      if (limit == Infinity) most = Math.min(most, (rc0 + RC_TOL) / -alpha);
      else if (rc0 / -alpha <= limit && -alpha > bestA) {
        bestA = -alpha;
        this.dualEnter = c;
        this.dualRc = rc;
      }
    }
    return most;
  }


  /** Dantzig bound: val plus items[from..m) not blocked filled into room fractionally by value per length. */
  private fill(from: i32, m: i32, room: f64, val: f64): f64 {
    let ub = val;
    let left = room;
    for (let a = from; a < m; a++) {
      const g = unchecked(this.items[a]);
      if (unchecked(this.blocked[g]) != 0) continue;
      const len = unchecked(this.groupLen[g]);
      if (len <= left) {
        left -= len;
        ub += unchecked(this.value[g]);
      } else return ub + unchecked(this.value[g]) * (left / len);
    }
    return ub;
  }

  /** Keeps the node's basis for its second child. */
  private save(depth: i32): void {
    const m = this.m;
    while (this.savedBasis.length <= depth) {
      this.savedBasis.push(new Int32Array(0));
      this.savedBinv.push(new Float64Array(0));
    }
    if (this.savedBasis[depth].length != m) this.savedBasis[depth] = new Int32Array(m);
    this.savedBasis[depth].set(this.basis.subarray(0, m));
    // Inverses kept within SAVED_BYTES in all (at the rows of the time); deeper nodes refactor.
    const keep = <f64>(depth + 1) * <f64>m * <f64>m * 8.0 <= SAVED_BYTES;
    if (!keep) this.savedBinv[depth] = new Float64Array(0);
    else {
      if (this.savedBinv[depth].length != m * m) this.savedBinv[depth] = new Float64Array(m * m);
      memory.copy(this.savedBinv[depth].dataStart, this.binv.dataStart, <usize>(m * m) << 3);
    }
  }

  private restore(depth: i32): void {
    const m = this.m;
    this.basis.set(this.savedBasis[depth]);
    if (this.savedBinv[depth].length == m * m) {
      memory.copy(this.binv.dataStart, this.savedBinv[depth].dataStart, <usize>(m * m) << 3);
      this.computeX();
    } else this.sincePivot = REFACTOR_EVERY;
  }
}
