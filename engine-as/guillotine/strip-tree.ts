// Long (over 400 lines) because the skyline, its branching and its pruning bounds are one backtracking search over shared arrays.
// Backtracking search for a strip layout of a given length L.
//
// Lowest-gap branching: the lowest, then leftmost, segment of the skyline (the profile of
// filled length across the roll's width) is a gap bounded by higher neighbours or the roll's
// edges. Its corner is either covered by a part placed there (each part type and
// orientation that fits is a branch; identical parts are one type, so their permutations are
// never tried twice) or declared waste up to its lower neighbour. Waste may not exceed the
// slack L x width - part area, which is zero for a perfect packing. Pruning (integral data):
// the floor of every pit (a segment lower than both neighbours) is covered by parts starting
// on it, so their widths sum to the pit's width; along each roll edge the parts touching it
// sum to the length left there. A width no subset of the remaining parts hits leaves waste.
// Guillotine jobs also drop partial layouts no guillotine cuts separate within the stage
// limit (adding parts never makes a cut possible). The search is iterative (no recursion
// depth limit) and can resume after a complete layout, so a caller may reject a layout and
// ask for the next. Kerf: parts, width and length are grown by one kerf.

import { Rng } from "../common/rng";
import { now } from "../common/clock";

export const FOUND: i32 = 1;
/** The whole tree was searched: no layout of this length (exact when the slack is 0). */
export const EXHAUSTED: i32 = 2;
/** Node limit or deadline reached. */
export const STOPPED: i32 = 3;

const EPS: f64 = 1e-9;
/** Branch code of "the gap's corner is waste". */
const WASTE: i32 = -1;
const NONE: i32 = -2;
/** Guillotine layouts: partial layouts of at most this many parts are checked for guillotine cuts. */
const SEPARABLE_CHECK_MAX: i32 = 64;
/** Nodes between clock reads (a node's subset sums cost much on jobs of thousands of parts). */
const CLOCK_EVERY: i64 = 64;

export class StripTree {
  /** Distinct part shapes: ex/ey[2t + o] = extent along x / across the width in orientation o (kerf added), < 0 when not allowed. */
  nt: i32 = 0;
  ex: Float64Array;
  ey: Float64Array;
  q0: Int32Array;
  q: Int32Array;
  /** The input parts behind each shape, whether each is turned (its orientation 0 is the shape's 1). */
  memberStart: Int32Array;
  memberPart: Int32Array = new Int32Array(0);
  memberQ: Int32Array = new Int32Array(0);
  memberTurned: Uint8Array = new Uint8Array(0);
  W: f64;
  k: f64;
  area: f64 = 0;
  total: i32 = 0;
  integral: bool;
  /** Multiplicative random spread of the branch order (0: fixed order). */
  noise: f64 = 0;
  rng: Rng = new Rng(0);
  nodes: i64 = 0;
  /** Guillotine stage limit of the layouts (0 = unlimited); < 0: free placement. */
  maxPhase: i32 = -1;

  private Lk: f64 = 0;
  private slack: f64 = 0;
  private left: i32 = 0;
  private depth: i32 = -1;
  private limit: i64 = 0;
  private deadline: f64 = 0;
  // Skyline segments of every frame, stacked: y start, width, filled length.
  private sY: Float64Array = new Float64Array(256);
  private sW: Float64Array = new Float64Array(256);
  private sH: Float64Array = new Float64Array(256);
  // Per frame (depth): skyline offset and count, waste so far, candidate list, choice.
  private fSeg: Int32Array = new Int32Array(64);
  private fCnt: Int32Array = new Int32Array(64);
  private fWaste: Float64Array = new Float64Array(64);
  private fCand: Int32Array = new Int32Array(64);
  private fNc: Int32Array = new Int32Array(64);
  private fNext: Int32Array = new Int32Array(64);
  private fChosen: Int32Array = new Int32Array(64);
  private fX: Float64Array = new Float64Array(64);
  private fY: Float64Array = new Float64Array(64);
  private cand: Int32Array = new Int32Array(256);
  private idx: Int32Array = new Int32Array(64);
  private score: Float64Array = new Float64Array(64);
  private order: Int32Array = new Int32Array(64);
  // Subset sums of the remaining widths (integral data).
  private widthSums: Uint64Array = new Uint64Array(0);
  private lengthSums: Uint64Array = new Uint64Array(0);

  /** Parts: l (along x), w (across), q, mask (1: as given, 2: turned); Y = usable width, k = kerf. */
  constructor(Y: f64, k: f64, pl: Float64Array, pw: Float64Array, pq: Int32Array, pm: Int32Array) {
    const n = pl.length;
    this.W = Y + k;
    this.k = k;
    let integral = Y == Math.floor(Y) && k == Math.floor(k);
    // Shape of each part: turned so that rotatable shapes compare equal either way round.
    const key = new Int32Array(n);
    const turned = new Uint8Array(n);
    let nt = 0;
    const shapeOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      shapeOf[i] = -1;
      if (pq[i] <= 0 || pm[i] == 0) continue;
      integral = integral && pl[i] == Math.floor(pl[i]) && pw[i] == Math.floor(pw[i]);
      turned[i] = pm[i] == 3 && pl[i] < pw[i] ? 1 : 0;
      let s = -1;
      for (let j = 0; j < nt; j++) {
        const r = key[j];
        if (pm[r] == pm[i] && shapeL(pl, pw, turned, r) == shapeL(pl, pw, turned, i) && shapeW(pl, pw, turned, r) == shapeW(pl, pw, turned, i)) {
          s = j;
          break;
        }
      }
      if (s < 0) {
        s = nt++;
        key[s] = i;
      }
      shapeOf[i] = s;
    }
    this.integral = integral;
    this.nt = nt;
    this.ex = new Float64Array(2 * nt);
    this.ey = new Float64Array(2 * nt);
    this.q0 = new Int32Array(nt);
    this.q = new Int32Array(nt);
    this.memberStart = new Int32Array(nt + 1);
    for (let s = 0; s < nt; s++) {
      const r = key[s];
      const l = shapeL(pl, pw, turned, r);
      const w = shapeW(pl, pw, turned, r);
      const m = pm[r];
      const square = l == w;
      this.ex[2 * s] = (m & 1) != 0 && w <= Y + EPS ? l + k : -1;
      this.ey[2 * s] = w + k;
      this.ex[2 * s + 1] = (m & 2) != 0 && !square && l <= Y + EPS ? w + k : -1;
      this.ey[2 * s + 1] = l + k;
    }
    let members = 0;
    for (let i = 0; i < n; i++) {
      const s = shapeOf[i];
      if (s < 0) continue;
      this.q0[s] += pq[i];
      this.memberStart[s + 1]++;
      members++;
      this.total += pq[i];
      this.area += <f64>pq[i] * (pl[i] + k) * (pw[i] + k);
    }
    for (let s = 0; s < nt; s++) this.memberStart[s + 1] += this.memberStart[s];
    this.memberPart = new Int32Array(members);
    this.memberQ = new Int32Array(members);
    this.memberTurned = new Uint8Array(members);
    const fill = new Int32Array(nt);
    for (let i = 0; i < n; i++) {
      const s = shapeOf[i];
      if (s < 0) continue;
      const at = this.memberStart[s] + fill[s]++;
      this.memberPart[at] = i;
      this.memberQ[at] = pq[i];
      this.memberTurned[at] = turned[i];
    }
    if (2 * nt + 1 > this.score.length) {
      this.score = new Float64Array(2 * nt + 1);
      this.order = new Int32Array(2 * nt + 1);
    }
  }

  /** Whether some part cannot be placed across the roll in any allowed orientation. */
  unplaceable(): bool {
    for (let s = 0; s < this.nt; s++) if (this.ex[2 * s] < 0 && this.ex[2 * s + 1] < 0) return true;
    return false;
  }

  /** Shortest length any layout can have: area bound and the longest part (its shorter allowed extent). */
  lowerBound(): f64 {
    let lb = this.W > 0 ? this.area / this.W - this.k : 0;
    if (this.integral) lb = Math.ceil(lb - 1e-7);
    for (let s = 0; s < this.nt; s++) {
      let e: f64 = Infinity;
      if (this.ex[2 * s] >= 0) e = this.ex[2 * s];
      if (this.ex[2 * s + 1] >= 0) e = Math.min(e, this.ex[2 * s + 1]);
      lb = Math.max(lb, e - this.k);
    }
    return Math.max(lb, 0);
  }

  /** Starts a search for a layout no longer than L. False when the area alone rules L out. */
  start(L: f64, nodeLimit: i64, deadline: f64): bool {
    this.Lk = L + this.k;
    this.slack = this.Lk * this.W - this.area;
    this.limit = this.nodes + nodeLimit;
    this.deadline = deadline;
    this.depth = -1;
    if (this.slack < -1e-7 * Math.max(1.0, this.area) || this.total == 0) return false;
    if (this.slack < 0) this.slack = 0;
    for (let s = 0; s < this.nt; s++) this.q[s] = this.q0[s];
    this.left = this.total;
    this.ensureFrames(1);
    this.ensureSegs(1);
    this.sY[0] = 0;
    this.sW[0] = this.W;
    this.sH[0] = 0;
    this.fSeg[0] = 0;
    this.fCnt[0] = 1;
    this.fWaste[0] = 0;
    this.fCand[0] = 0;
    this.fChosen[0] = NONE;
    if (this.expand(0) == 0) return false;
    this.depth = 0;
    return true;
  }

  /** Continues the search: FOUND (read placements, then call again for another), EXHAUSTED or STOPPED. */
  next(): i32 {
    for (;;) {
      const d = this.depth;
      if (d < 0) return EXHAUSTED;
      this.undo(d);
      if (unchecked(this.fNext[d]) >= unchecked(this.fNc[d])) {
        this.depth = d - 1;
        continue;
      }
      const code = unchecked(this.cand[unchecked(this.fCand[d]) + unchecked(this.fNext[d])]);
      unchecked((this.fNext[d] += 1));
      this.nodes++;
      if (this.nodes >= this.limit || (this.nodes % CLOCK_EVERY == 0 && now() >= this.deadline)) {
        this.depth = -1;
        return STOPPED;
      }
      this.descend(d, code);
      // Cuts only ever get fewer as parts are added: parts no guillotine cuts separate now never
      // will be. Checked while few parts are placed (the check sorts them all); later only leaves are.
      if (this.maxPhase >= 0 && code >= 0 && this.total - this.left <= SEPARABLE_CHECK_MAX && !this.separable(d)) continue;
      if (this.left == 0) return FOUND;
      if (this.expand(d + 1) == 0) continue;
      this.depth = d + 1;
    }
    return EXHAUSTED;
  }

  /** Parts placed in the layout just found, in placement order: shape, orientation, corner (kerf grown sizes). */
  placements(t: Int32Array, o: Int32Array, x: Float64Array, y: Float64Array): i32 {
    let c = 0;
    for (let d = 0; d <= this.depth + 1 && c < this.total; d++) {
      const code = unchecked(this.fChosen[d]);
      if (code < 0) continue;
      t[c] = code >> 1;
      o[c] = code & 1;
      x[c] = unchecked(this.fX[d]);
      y[c] = unchecked(this.fY[d]);
      c++;
    }
    return c;
  }

  // ---------------------------------------------------------------- frames

  /** Takes back the choice made at depth d. */
  private undo(d: i32): void {
    const c = unchecked(this.fChosen[d]);
    if (c >= 0) {
      unchecked((this.q[c >> 1] += 1));
      this.left++;
    }
    unchecked((this.fChosen[d] = NONE));
  }

  /** Frame d + 1 = frame d with `code` applied at its lowest gap. */
  private descend(d: i32, code: i32): void {
    const off = unchecked(this.fSeg[d]);
    const m = unchecked(this.fCnt[d]);
    const li = this.lowest(off, m);
    const no = off + m;
    this.ensureFrames(d + 2);
    this.ensureSegs(no + m + 2);
    const sY = this.sY;
    const sW = this.sW;
    const sH = this.sH;
    const h = unchecked(sH[off + li]);
    const g = unchecked(sW[off + li]);
    const y0 = unchecked(sY[off + li]);
    let waste = unchecked(this.fWaste[d]);
    let j = no;
    for (let i = 0; i < m; i++) {
      if (i != li) {
        unchecked((sY[j] = sY[off + i]));
        unchecked((sW[j] = sW[off + i]));
        unchecked((sH[j] = sH[off + i]));
        j++;
        continue;
      }
      if (code == WASTE) {
        const up = this.neighbourLow(off, m, li);
        waste += g * (up - h);
        unchecked((sY[j] = y0));
        unchecked((sW[j] = g));
        unchecked((sH[j] = up));
        j++;
        continue;
      }
      const t = code >> 1;
      const ex = unchecked(this.ex[code]);
      const ey = unchecked(this.ey[code]);
      unchecked((sY[j] = y0));
      unchecked((sW[j] = ey));
      unchecked((sH[j] = h + ex));
      j++;
      if (ey < g - EPS) {
        unchecked((sY[j] = y0 + ey));
        unchecked((sW[j] = g - ey));
        unchecked((sH[j] = h));
        j++;
      }
      unchecked((this.q[t] -= 1));
      this.left--;
    }
    unchecked((this.fChosen[d] = code));
    unchecked((this.fX[d] = h));
    unchecked((this.fY[d] = y0));
    // Merge neighbours of equal length.
    let k = no;
    for (let i = no + 1; i < j; i++) {
      if (Math.abs(unchecked(sH[i]) - unchecked(sH[k])) <= EPS) {
        unchecked((sW[k] += sW[i]));
      } else {
        k++;
        unchecked((sY[k] = sY[i]));
        unchecked((sW[k] = sW[i]));
        unchecked((sH[k] = sH[i]));
      }
    }
    unchecked((this.fSeg[d + 1] = no));
    unchecked((this.fCnt[d + 1] = k - no + 1));
    unchecked((this.fWaste[d + 1] = waste));
    unchecked((this.fChosen[d + 1] = NONE));
    unchecked((this.fNext[d + 1] = 0));
  }

  /** Index of the lowest segment (leftmost among equals). */
  private lowest(off: i32, m: i32): i32 {
    let li = 0;
    for (let i = 1; i < m; i++) if (unchecked(this.sH[off + i]) < unchecked(this.sH[off + li]) - EPS) li = i;
    return li;
  }

  /** Length of the lower neighbour of segment i (the only one at an edge). */
  private neighbourLow(off: i32, m: i32, i: i32): f64 {
    let up: f64 = Infinity;
    if (i > 0) up = unchecked(this.sH[off + i - 1]);
    if (i < m - 1) up = Math.min(up, unchecked(this.sH[off + i + 1]));
    return up;
  }

  /** Lists the branches of frame d, best first; returns how many (0: dead end). */
  private expand(d: i32): i32 {
    const off = unchecked(this.fSeg[d]);
    const m = unchecked(this.fCnt[d]);
    const li = this.lowest(off, m);
    const sH = this.sH;
    const sW = this.sW;
    const h = unchecked(sH[off + li]);
    const g = unchecked(sW[off + li]);
    const room = this.Lk - h;
    const slack = this.slack;
    let need = unchecked(this.fWaste[d]);
    let gapShort: f64 = 0;
    // A part longer than the room above the lowest floor can never be placed.
    for (let t = 0; t < this.nt; t++) {
      if (unchecked(this.q[t]) <= 0) continue;
      const a = unchecked(this.ex[2 * t]);
      const b = unchecked(this.ex[2 * t + 1]);
      if ((a < 0 || a > room + EPS) && (b < 0 || b > room + EPS)) return 0;
    }
    const exact = this.integral;
    if (exact) {
      // Each gap between higher neighbours must be spanned by parts starting at its floor;
      // a width no sum of remaining widths hits leaves at least that much waste one unit long.
      let G: f64 = 0;
      for (let i = 0; i < m; i++) if (this.isPit(off, m, i)) G = Math.max(G, unchecked(sW[off + i]));
      this.sums(<i32>G, room, true);
      for (let i = 0; i < m; i++) {
        if (!this.isPit(off, m, i)) continue;
        const gi = <i32>unchecked(sW[off + i]);
        const short = shortOf(this.widthSums, gi);
        need += short;
        if (i == li) gapShort = short;
      }
      if (need > slack + EPS) return 0;
      // Along each edge of the roll the parts touching it fill the rest of its length exactly.
      const r0 = <i32>(this.Lk - unchecked(sH[off]));
      const r1 = <i32>(this.Lk - unchecked(sH[off + m - 1]));
      const bx = this.sums(max<i32>(r0, r1), room, false);
      if (need + shortOf(bx, r0) + shortOf(bx, r1) > slack + EPS) return 0;
    }
    const hl = li > 0 ? unchecked(sH[off + li - 1]) : -1;
    const hr = li < m - 1 ? unchecked(sH[off + li + 1]) : -1;
    const big = this.Lk * this.W;
    let nc = 0;
    for (let t = 0; t < this.nt; t++) {
      if (unchecked(this.q[t]) <= 0) continue;
      for (let o = 0; o < 2; o++) {
        const c = 2 * t + o;
        const ex = unchecked(this.ex[c]);
        if (ex < 0 || ex > room + EPS) continue;
        const ey = unchecked(this.ey[c]);
        if (ey > g + EPS) continue;
        const fits = ey >= g - EPS;
        if (exact && !fits) {
          const rest = <i32>(g - ey);
          if (need - gapShort + shortOf(this.widthSums, rest) > slack + EPS) continue;
        }
        let s = ex * ey;
        if (fits) s += big;
        // Ending level with a neighbour closes that step.
        if (Math.abs(h + ex - hl) <= EPS || (fits && Math.abs(h + ex - hr) <= EPS)) s += 0.5 * big;
        if (this.noise > 0) s *= 1.0 + this.noise * this.rng.float();
        unchecked((this.score[nc] = s));
        unchecked((this.order[nc] = c));
        nc++;
      }
    }
    // Best first (insertion sort: lists are short).
    for (let i = 1; i < nc; i++) {
      const s = unchecked(this.score[i]);
      const c = unchecked(this.order[i]);
      let j = i - 1;
      while (j >= 0 && unchecked(this.score[j]) < s) {
        unchecked((this.score[j + 1] = this.score[j]));
        unchecked((this.order[j + 1] = this.order[j]));
        j--;
      }
      unchecked((this.score[j + 1] = s));
      unchecked((this.order[j + 1] = c));
    }
    let waste = false;
    if (m > 1) {
      const up = this.neighbourLow(off, m, li);
      waste = unchecked(this.fWaste[d]) + g * (up - h) <= slack + EPS;
    }
    const base = d == 0 ? 0 : unchecked(this.fCand[d - 1]) + unchecked(this.fNc[d - 1]);
    this.ensureCand(base + nc + 1);
    for (let i = 0; i < nc; i++) unchecked((this.cand[base + i] = this.order[i]));
    if (waste) unchecked((this.cand[base + nc++] = WASTE));
    unchecked((this.fCand[d] = base));
    unchecked((this.fNc[d] = nc));
    unchecked((this.fNext[d] = 0));
    return nc;
  }

  /** Segment i is a pit: both neighbours (or edges) higher, so its floor must be spanned exactly. */
  @inline private isPit(off: i32, m: i32, i: i32): bool {
    const h = unchecked(this.sH[off + i]);
    return (i == 0 || unchecked(this.sH[off + i - 1]) > h + EPS) && (i == m - 1 || unchecked(this.sH[off + i + 1]) > h + EPS);
  }

  /**
   * Bit set of the sums 0..G of the remaining parts' widths (across = true) or lengths, each
   * part once, either way round if allowed and not longer than room.
   */
  private sums(G: i32, room: f64, across: bool): Uint64Array {
    const words = (G >> 6) + 1;
    if (across && this.widthSums.length < words) this.widthSums = new Uint64Array(words);
    if (!across && this.lengthSums.length < words) this.lengthSums = new Uint64Array(words);
    const bits = across ? this.widthSums : this.lengthSums;
    for (let w = 0; w < words; w++) unchecked((bits[w] = 0));
    unchecked((bits[0] = 1));
    for (let t = 0; t < this.nt; t++) {
      const q = unchecked(this.q[t]);
      if (q <= 0) continue;
      for (let o = 0; o < 2; o++) {
        const ex = unchecked(this.ex[2 * t + o]);
        if (ex < 0 || ex > room + EPS) continue;
        const v = <i32>(across ? unchecked(this.ey[2 * t + o]) : ex);
        if (v > G || v <= 0) continue;
        const reps = min<i32>(q, G / v);
        const ws = v >> 6;
        const bs = <u64>(v & 63);
        // bits |= bits << v, once per copy; from the top word down so each word reads old values.
        for (let r = 0; r < reps; r++) {
          for (let w = words - 1; w >= ws; w--) {
            let add = unchecked(bits[w - ws]) << bs;
            if (bs != 0 && w - ws - 1 >= 0) add |= unchecked(bits[w - ws - 1]) >> (64 - bs);
            unchecked((bits[w] |= add));
          }
        }
      }
    }
    return bits;
  }

  // ---------------------------------------------------------------- guillotine check

  /** Whether the parts placed at depths 0..d can be separated by guillotine cuts within maxPhase (first cuts across the roll). */
  private separable(d: i32): bool {
    let n = 0;
    if (this.idx.length < d + 1) this.idx = new Int32Array(d + 1 + ((d + 1) >> 1));
    for (let i = 0; i <= d; i++) if (unchecked(this.fChosen[i]) >= 0) unchecked((this.idx[n++] = i));
    const mp = this.maxPhase > 0 ? this.maxPhase : 1 << 30;
    return this.cuts(0, n, 1, 1, mp, false);
  }

  /**
   * Parts idx[from..to) (depths) in one region: cut at every line in direction dir (1: across
   * the roll, lines at fixed x) that crosses none, then each group the other way, one stage deeper.
   */
  private cuts(from: i32, to: i32, dir: i32, stage: i32, mp: i32, turned: bool): bool {
    if (to - from <= 1) return true;
    const idx = this.idx;
    const across = dir == 1;
    // Insertion sort by start coordinate (groups are short).
    for (let i = from + 1; i < to; i++) {
      const v = unchecked(idx[i]);
      const key = this.lo(v, across);
      let j = i - 1;
      while (j >= from && this.lo(unchecked(idx[j]), across) > key) {
        unchecked((idx[j + 1] = idx[j]));
        j--;
      }
      unchecked((idx[j + 1] = v));
    }
    let groups = 0;
    let reach: f64 = -Infinity;
    for (let i = from; i < to; i++) {
      const v = unchecked(idx[i]);
      const lo = this.lo(v, across);
      if (i == from || lo >= reach - EPS) groups++;
      reach = Math.max(reach, this.hi(v, across));
    }
    if (groups == 1) return turned ? false : this.cuts(from, to, 1 - dir, stage + 1, mp, true);
    if (stage > mp) return false;
    // Each group is a contiguous run of the sorted range.
    let start = from;
    reach = this.hi(unchecked(idx[from]), across);
    for (let i = from + 1; i < to; i++) {
      const v = unchecked(idx[i]);
      if (this.lo(v, across) >= reach - EPS) {
        if (!this.cuts(start, i, 1 - dir, stage + 1, mp, false)) return false;
        start = i;
      }
      reach = Math.max(reach, this.hi(v, across));
    }
    return this.cuts(start, to, 1 - dir, stage + 1, mp, false);
  }

  /** Start of the part placed at depth v along x (across = true) or y. */
  @inline private lo(v: i32, across: bool): f64 {
    return across ? unchecked(this.fX[v]) : unchecked(this.fY[v]);
  }

  /** End of the part placed at depth v along x (across = true) or y. */
  @inline private hi(v: i32, across: bool): f64 {
    const c = unchecked(this.fChosen[v]);
    return across ? unchecked(this.fX[v]) + unchecked(this.ex[c]) : unchecked(this.fY[v]) + unchecked(this.ey[c]);
  }

  // ---------------------------------------------------------------- storage

  private ensureFrames(n: i32): void {
    if (n <= this.fSeg.length) return;
    const c = max<i32>(n, this.fSeg.length << 1);
    this.fSeg = growI32(this.fSeg, c);
    this.fCnt = growI32(this.fCnt, c);
    this.fWaste = growF64(this.fWaste, c);
    this.fCand = growI32(this.fCand, c);
    this.fNc = growI32(this.fNc, c);
    this.fNext = growI32(this.fNext, c);
    this.fChosen = growI32(this.fChosen, c);
    this.fX = growF64(this.fX, c);
    this.fY = growF64(this.fY, c);
  }

  private ensureSegs(n: i32): void {
    if (n <= this.sY.length) return;
    const c = max<i32>(n, this.sY.length << 1);
    this.sY = growF64(this.sY, c);
    this.sW = growF64(this.sW, c);
    this.sH = growF64(this.sH, c);
  }

  private ensureCand(n: i32): void {
    if (n <= this.cand.length) return;
    this.cand = growI32(this.cand, max<i32>(n, this.cand.length << 1));
  }
}

/** s less the largest sum <= s in the bit set. */
function shortOf(bits: Uint64Array, s: i32): f64 {
  let w = s >> 6;
  const top = s & 63;
  let word = unchecked(bits[w]) & (top == 63 ? ~(<u64>0) : ((<u64>1 << <u64>(top + 1)) - 1));
  for (;;) {
    if (word != 0) return <f64>(s - (w * 64 + 63 - <i32>clz(word)));
    if (--w < 0) break;
    word = unchecked(bits[w]);
  }
  return <f64>s;
}

function shapeL(pl: Float64Array, pw: Float64Array, turned: Uint8Array, i: i32): f64 {
  return turned[i] != 0 ? pw[i] : pl[i];
}

function shapeW(pl: Float64Array, pw: Float64Array, turned: Uint8Array, i: i32): f64 {
  return turned[i] != 0 ? pl[i] : pw[i];
}

function growI32(a: Int32Array, c: i32): Int32Array {
  const b = new Int32Array(c);
  b.set(a);
  return b;
}

function growF64(a: Float64Array, c: i32): Float64Array {
  const b = new Float64Array(c);
  b.set(a);
  return b;
}
