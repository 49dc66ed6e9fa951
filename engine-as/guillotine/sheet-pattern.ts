// Best single sheet by branch and bound: the 3-stage pattern (strips across the first cuts,
// stacks side by side in a strip, parts stacked in a stack, trimmed to size) that holds the
// most part area from a given multiset of parts, each part used at most once. The greedy
// fills build a sheet strip by strip and never revisit a choice; for jobs with a few large
// parts per sheet one sheet's worth of choices is small enough to search exhaustively, or
// nearly (a node limit).
//
// The search places one part at a time: into the current stack, as the opener of a new stack
// in the current strip, or as the opener of a new strip. A strip is as high as its first
// stack (which grows while it is the strip's only stack). Symmetry is broken by order: strips
// by falling height, the stacks after the first (the highest) by falling width (the opener is
// the widest part of its stack), the later parts of a stack by rising (type, orientation)
// index, and among strips (stacks) of equal height (width) by rising opener index. A branch is cut when
// its part area plus the least of the open room and the open parts' area cannot beat the best.
// Works on plain arrays (no Instance), so a test can drive it alone.

import { F64Vec, I32Vec } from "../common/arrays";
import { appendNode, KIND_CUT, KIND_PART, N_CHILDREN, N_L, N_W } from "../sheets/layout";

/** How the search extended the pattern with a part (the replay of the best pattern). */
const IN_STACK: i32 = 0;
const NEW_STACK: i32 = 1;
const NEW_STRIP: i32 = 2;

/**
 * The open strip and stack of a partial pattern. A strip's height is that of its first stack,
 * which may grow while it is the last stack opened (up to capH: the strip before, and the
 * sheet's rest).
 */
class Frame {
  stripBase: f64 = 0;
  stripH: f64 = 0;
  capH: f64 = 0;
  stripOpener: i32 = -1;
  firstStack: bool = false;
  /** Stacks of the current strip, current included, with the kerfs between. */
  alongUsed: f64 = 0;
  stackW: f64 = 0;
  stackOpener: i32 = -1;
  /** Parts of the current stack. */
  stackUsed: f64 = 0;
  lastInStack: i32 = -1;

  /** The empty sheet. */
  reset(): void {
    this.stripBase = 0;
    this.stripH = 0;
    this.capH = 0;
    this.stripOpener = -1;
    this.firstStack = false;
    this.alongUsed = 0;
    this.stackW = 0;
    this.stackOpener = -1;
    this.stackUsed = 0;
    this.lastInStack = -1;
  }

  copyFrom(f: Frame): void {
    this.stripBase = f.stripBase;
    this.stripH = f.stripH;
    this.capH = f.capH;
    this.stripOpener = f.stripOpener;
    this.firstStack = f.firstStack;
    this.alongUsed = f.alongUsed;
    this.stackW = f.stackW;
    this.stackOpener = f.stackOpener;
    this.stackUsed = f.stackUsed;
    this.lastInStack = f.lastInStack;
  }
}

export class SheetPattern {
  /** Candidate orientations: type, rotation, extent along the first cuts, across, area; sorted by falling area. */
  private oType: I32Vec = new I32Vec(64);
  private oRot: I32Vec = new I32Vec(64);
  private oAlong: F64Vec = new F64Vec(64);
  private oAcross: F64Vec = new F64Vec(64);
  private oArea: F64Vec = new F64Vec(64);
  /** Parts still open per type (the caller's demand, restored on return). */
  private count: Int32Array = new Int32Array(0);
  private openArea: f64 = 0;
  private minAlong: f64 = 0;
  private minAcross: f64 = 0;

  private A: f64 = 0;
  private B: f64 = 0;
  private kerf: f64 = 0;
  private eps: f64 = 0;

  /** The partial pattern's open strip and stack, one frame per depth (a move writes the next). */
  private frames: Array<Frame> = new Array<Frame>();
  private moves: I32Vec = new I32Vec(64);
  private movesKind: I32Vec = new I32Vec(64);

  private best: f64 = 0;
  private bestMoves: I32Vec = new I32Vec(64);
  private bestKind: I32Vec = new I32Vec(64);
  private nodes: i32 = 0;
  private nodeLimit: i32 = 0;

  /** Operations spent (candidates scanned, and one per node), for the caller's effort count. */
  work: i64 = 0;
  /** Part area and part count of the last pattern found. */
  placedArea: f64 = 0;
  placedCount: i32 = 0;
  /** Whether the last search ran to the end (its pattern is then the best there is). */
  complete: bool = false;

  /**
   * Searches the best pattern on a sheet with usable extents A along the first cuts and B
   * across, from demand[types[i]] parts of each of types[0..nt); part t measures l[t] x w[t]
   * (rotation 0 puts l along x) and may take rotation r when mask[t] has bit r. `alongIsX`:
   * the first cuts run along x. Writes the pattern to `out` (root at ox, oy; one node per
   * cut and part, see sheets/layout.ts) and returns its part area; takes its parts off demand.
   */
  solve(
    types: Int32Array,
    nt: i32,
    demand: Int32Array,
    l: Float64Array,
    w: Float64Array,
    mask: Int32Array,
    alongIsX: bool,
    ox: f64,
    oy: f64,
    A: f64,
    B: f64,
    kerf: f64,
    eps: f64,
    nodeLimit: i32,
    out: F64Vec,
  ): f64 {
    this.A = A;
    this.B = B;
    this.kerf = kerf;
    this.eps = eps;
    this.nodeLimit = nodeLimit;
    this.collect(types, nt, demand, l, w, mask, alongIsX);
    this.best = 0;
    this.bestMoves.clear();
    this.bestKind.clear();
    this.moves.clear();
    this.movesKind.clear();
    this.nodes = 0;
    if (this.frames.length == 0) this.frames.push(new Frame());
    this.frames[0].reset();
    this.search(0, 0);
    this.complete = this.nodes < this.nodeLimit;
    this.emit(alongIsX, ox, oy, demand, out);
    return this.placedArea;
  }

  /** The orientations that fit the sheet, largest area first; counts from demand. */
  private collect(types: Int32Array, nt: i32, demand: Int32Array, l: Float64Array, w: Float64Array, mask: Int32Array, alongIsX: bool): void {
    let maxType = 0;
    for (let i = 0; i < nt; i++) maxType = max(maxType, unchecked(types[i]));
    if (this.count.length <= maxType) this.count = new Int32Array(maxType + 1);
    this.oType.clear();
    this.oRot.clear();
    this.oAlong.clear();
    this.oAcross.clear();
    this.oArea.clear();
    this.openArea = 0;
    this.minAlong = f64.MAX_VALUE;
    this.minAcross = f64.MAX_VALUE;
    const eps = this.eps;
    for (let i = 0; i < nt; i++) {
      const t = unchecked(types[i]);
      const d = unchecked(demand[t]);
      unchecked((this.count[t] = d));
      if (d <= 0) continue;
      let fits = false;
      for (let r = 0; r < 2; r++) {
        if ((unchecked(mask[t]) & (1 << r)) == 0) continue;
        const ex = r == 0 ? unchecked(l[t]) : unchecked(w[t]);
        const ey = r == 0 ? unchecked(w[t]) : unchecked(l[t]);
        // A square part's second orientation is the same part.
        if (r == 1 && (unchecked(mask[t]) & 1) != 0 && Math.abs(ex - ey) <= eps) continue;
        const along = alongIsX ? ex : ey;
        const across = alongIsX ? ey : ex;
        if (along > this.A + eps || across > this.B + eps) continue;
        this.oType.push(t);
        this.oRot.push(r);
        this.oAlong.push(along);
        this.oAcross.push(across);
        this.oArea.push(ex * ey);
        this.minAlong = Math.min(this.minAlong, along);
        this.minAcross = Math.min(this.minAcross, across);
        fits = true;
      }
      if (fits) this.openArea += <f64>d * unchecked(l[t]) * unchecked(w[t]);
    }
    this.sortByArea();
  }

  /** Insertion sort of the orientations by falling area (ties: type, then rotation), so good sheets come early. */
  private sortByArea(): void {
    const n = this.oType.len;
    const ty = this.oType.data;
    const ro = this.oRot.data;
    const al = this.oAlong.data;
    const ac = this.oAcross.data;
    const ar = this.oArea.data;
    for (let i = 1; i < n; i++) {
      const t = unchecked(ty[i]);
      const r = unchecked(ro[i]);
      const a = unchecked(al[i]);
      const c = unchecked(ac[i]);
      const s = unchecked(ar[i]);
      let j = i - 1;
      while (j >= 0 && (unchecked(ar[j]) < s || (unchecked(ar[j]) == s && (unchecked(ty[j]) > t || (unchecked(ty[j]) == t && unchecked(ro[j]) > r))))) {
        unchecked((ty[j + 1] = unchecked(ty[j])));
        unchecked((ro[j + 1] = unchecked(ro[j])));
        unchecked((al[j + 1] = unchecked(al[j])));
        unchecked((ac[j + 1] = unchecked(ac[j])));
        unchecked((ar[j + 1] = unchecked(ar[j])));
        j--;
      }
      unchecked((ty[j + 1] = t));
      unchecked((ro[j + 1] = r));
      unchecked((al[j + 1] = a));
      unchecked((ac[j + 1] = c));
      unchecked((ar[j + 1] = s));
    }
  }

  /**
   * Room parts could still go (each region only when the smallest part fits it): the rest of
   * the stack and of the strip, at the height the strip may still grow to, and above it.
   */
  private openRoom(f: Frame): f64 {
    const kerf = this.kerf;
    const eps = this.eps;
    const h = f.firstStack ? f.capH : f.stripH;
    let room: f64 = 0;
    if (f.stackOpener >= 0) {
      const up = h - f.stackUsed - kerf;
      if (up >= this.minAcross - eps) room += up * f.stackW;
    }
    if (f.stripOpener >= 0) {
      const a = this.A - f.alongUsed - kerf;
      if (a >= this.minAlong - eps) room += a * h;
    }
    const b = this.B - this.nextStripBase(f);
    if (b >= this.minAcross - eps) room += b * this.A;
    return room;
  }

  /** Where a new strip would start, across. */
  @inline private nextStripBase(f: Frame): f64 {
    return f.stripOpener >= 0 ? f.stripBase + f.stripH + this.kerf : 0;
  }

  private record(area: f64): void {
    this.best = area;
    this.bestMoves.clear();
    this.bestKind.clear();
    for (let i = 0; i < this.moves.len; i++) {
      this.bestMoves.push(this.moves.get(i));
      this.bestKind.push(this.movesKind.get(i));
    }
  }

  /** The frame a move from depth d writes (the partial pattern one part on). */
  private next(d: i32): Frame {
    if (this.frames.length == d + 1) this.frames.push(new Frame());
    const g = this.frames[d + 1];
    g.copyFrom(this.frames[d]);
    return g;
  }

  private search(d: i32, area: f64): void {
    if (area > this.best + this.eps) this.record(area);
    if (this.nodes >= this.nodeLimit) return;
    this.nodes++;
    const f = this.frames[d];
    if (area + Math.min(this.openRoom(f), this.openArea) <= this.best + this.eps) return;
    const n = this.oType.len;
    const eps = this.eps;
    const kerf = this.kerf;
    const count = this.count;
    // Into the current stack: no wider than its opener, index not below the part placed before (the opener aside).
    if (f.stackOpener >= 0) {
      const room = (f.firstStack ? f.capH : f.stripH) - f.stackUsed - kerf;
      const from = max(f.lastInStack, 0);
      this.work += n - from;
      for (let o = from; o < n; o++) {
        const t = this.oType.get(o);
        if (unchecked(count[t]) == 0) continue;
        const along = unchecked(this.oAlong.data[o]);
        const across = unchecked(this.oAcross.data[o]);
        if (along > f.stackW + eps || across > room + eps) continue;
        const g = this.next(d);
        g.stackUsed += kerf + across;
        g.lastInStack = o;
        if (g.firstStack) g.stripH = Math.max(g.stripH, g.stackUsed);
        this.place(d + 1, o, IN_STACK, area);
        if (this.nodes >= this.nodeLimit) return;
      }
    }
    // A new stack in the current strip: no taller than the strip (whose first stack is its highest), and
    // after the second, no wider than the stack before.
    if (f.stripOpener >= 0) {
      const room = this.A - f.alongUsed - kerf;
      const widest = f.firstStack ? f64.MAX_VALUE : f.stackW;
      this.work += n;
      for (let o = 0; o < n; o++) {
        const t = this.oType.get(o);
        if (unchecked(count[t]) == 0) continue;
        const along = unchecked(this.oAlong.data[o]);
        const across = unchecked(this.oAcross.data[o]);
        if (along > room + eps || across > f.stripH + eps || along > widest + eps) continue;
        if (along >= widest - eps && o < f.stackOpener) continue;
        const g = this.next(d);
        g.alongUsed += kerf + along;
        g.stackW = along;
        g.stackOpener = o;
        g.stackUsed = across;
        g.lastInStack = -1;
        g.firstStack = false;
        this.place(d + 1, o, NEW_STACK, area);
        if (this.nodes >= this.nodeLimit) return;
      }
    }
    // A new strip, no higher than the strip before (equal: a strip its opener alone sets comes in rising opener index).
    const base = this.nextStripBase(f);
    const prevH = f.stripOpener >= 0 ? f.stripH : f64.MAX_VALUE;
    const cap = Math.min(prevH, this.B - base);
    this.work += n + 1;
    for (let o = 0; o < n; o++) {
      const t = this.oType.get(o);
      if (unchecked(count[t]) == 0) continue;
      const along = unchecked(this.oAlong.data[o]);
      const across = unchecked(this.oAcross.data[o]);
      if (across > cap + eps) continue;
      if (across >= prevH - eps && o < f.stripOpener) continue;
      const g = this.next(d);
      g.stripBase = base;
      g.stripH = across;
      g.capH = cap;
      g.stripOpener = o;
      g.firstStack = true;
      g.alongUsed = along;
      g.stackW = along;
      g.stackOpener = o;
      g.stackUsed = across;
      g.lastInStack = -1;
      this.place(d + 1, o, NEW_STRIP, area);
      if (this.nodes >= this.nodeLimit) return;
    }
  }

  /** Takes one part of orientation o (placed by `kind`; frame d is the pattern with it), searches on, and gives it back. */
  private place(d: i32, o: i32, kind: i32, area: f64): void {
    const t = this.oType.get(o);
    const a = unchecked(this.oArea.data[o]);
    unchecked((this.count[t] -= 1));
    this.openArea -= a;
    this.moves.push(o);
    this.movesKind.push(kind);
    this.search(d, area + a);
    this.moves.len--;
    this.movesKind.len--;
    this.openArea += a;
    unchecked((this.count[t] += 1));
  }

  /** Replays the best moves into a node tree (root, strips, stacks, parts; see filler.ts for the same shape) and takes its parts off demand. */
  private emit(alongIsX: bool, ox: f64, oy: f64, demand: Int32Array, out: F64Vec): void {
    out.clear();
    this.placedArea = 0;
    this.placedCount = 0;
    const nm = this.bestMoves.len;
    if (nm == 0) return;
    const kerf = this.kerf;
    const rootDir = alongIsX ? 0 : 1;
    appendNode(out, KIND_CUT, rootDir, -1, ox, oy, alongIsX ? this.A : this.B, alongIsX ? this.B : this.A);
    let strips = 0;
    let stripNode = -1;
    let stacks = 0;
    let stackNode = -1;
    let parts = 0;
    let across0: f64 = -kerf; // strip start, across
    let stripH: f64 = 0;
    let along0: f64 = 0; // stack start, along
    let stackW: f64 = 0;
    let pos: f64 = 0; // next part, across within the stack
    for (let i = 0; i < nm; i++) {
      const o = this.bestMoves.get(i);
      const kind = this.bestKind.get(i);
      const t = this.oType.get(o);
      const r = this.oRot.get(o);
      const along = unchecked(this.oAlong.data[o]);
      const across = unchecked(this.oAcross.data[o]);
      if (kind != IN_STACK) {
        if (stackNode >= 0) unchecked((out.data[stackNode + N_CHILDREN] = <f64>parts));
        if (kind == NEW_STRIP) {
          if (stripNode >= 0) unchecked((out.data[stripNode + N_CHILDREN] = <f64>stacks));
          across0 += stripH + kerf;
          stripH = across;
          stripNode = out.len;
          const sx = alongIsX ? ox : ox + across0;
          const sy = alongIsX ? oy + across0 : oy;
          appendNode(out, KIND_CUT, 1 - rootDir, -1, sx, sy, alongIsX ? this.A : across, alongIsX ? across : this.A);
          strips++;
          stacks = 0;
          along0 = 0;
        } else {
          along0 += stackW + kerf;
        }
        stackW = along;
        stackNode = out.len;
        const kx = alongIsX ? ox + along0 : ox + across0;
        const ky = alongIsX ? oy + across0 : oy + along0;
        appendNode(out, KIND_CUT, rootDir, -1, kx, ky, alongIsX ? along : stripH, alongIsX ? stripH : along);
        stacks++;
        parts = 0;
        pos = 0;
      } else {
        pos += kerf;
      }
      const px = alongIsX ? ox + along0 : ox + across0 + pos;
      const py = alongIsX ? oy + across0 + pos : oy + along0;
      appendNode(out, KIND_PART, r, t, px, py, alongIsX ? along : across, alongIsX ? across : along);
      pos += across;
      if (pos > stripH) {
        // The strip's first stack grew past its opener: the strip and that stack grow with it.
        stripH = pos;
        unchecked((out.data[stripNode + (alongIsX ? N_W : N_L)] = stripH));
        unchecked((out.data[stackNode + (alongIsX ? N_W : N_L)] = stripH));
      }
      parts++;
      this.placedArea += unchecked(this.oArea.data[o]);
      this.placedCount++;
      unchecked((demand[t] -= 1));
    }
    if (stackNode >= 0) unchecked((out.data[stackNode + N_CHILDREN] = <f64>parts));
    if (stripNode >= 0) unchecked((out.data[stripNode + N_CHILDREN] = <f64>stacks));
    unchecked((out.data[N_CHILDREN] = <f64>strips));
  }
}
